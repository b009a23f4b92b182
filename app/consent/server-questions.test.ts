import { describe, expect, it, vi } from 'vitest';
import type { PendingPayload } from '../../shared/domain/pending';
import type { ServerState } from '../../shared/domain/server';
import { ElicitationFlow } from '../elicitation/elicitation-flow';
import { PendingRequests } from '../pending/pending-requests';
import { ServerQuestions } from './server-questions';

const toolPayload: PendingPayload<'tool-call'> = {
  server: 'files',
  serverTrusted: false,
  tool: 'write_file',
  annotationsTrusted: false,
  arguments: {},
};

function state(name: string, status: ServerState['status'], reason?: string): ServerState {
  return { name, status, ...(reason === undefined ? {} : { reason }) } as ServerState;
}

function questions() {
  const pending = new PendingRequests();
  const consent = { serversChanged: vi.fn(), forgetServer: vi.fn(async () => undefined) };
  const sampling = { answer: vi.fn(), review: { forgetServer: vi.fn() }, forgetSpending: vi.fn() };
  const flow = new ElicitationFlow({ pending, logs: { append: () => undefined }, openExternal: async () => undefined });
  const service = new ServerQuestions({
    pending,
    consent,
    sampling,
    flow,
    toolCalls: { originOf: () => ({}) },
    reportError: vi.fn(),
  });
  return { pending, consent, sampling, service };
}

describe('ServerQuestions', () => {
  it('withdraws what a server asked once it leaves ready, naming why, and re-checks the permissions on every change', async () => {
    const { pending, consent, sampling, service } = questions();
    service.serverChanged(state('files', 'starting'));
    service.serverChanged(state('files', 'ready'));
    const asked = pending.open('tool-call', 'files', toolPayload);
    const other = pending.open('tool-call', 'notes', toolPayload);
    service.serverChanged(state('files', 'ready'));
    expect(pending.list()).toHaveLength(2);

    service.serverChanged(state('files', 'crashed', 'exit code 1'));
    await expect(asked).resolves.toMatchObject({ withdrawn: true, note: "server 'files' disconnected (exit code 1)" });
    // A disconnect, not a removal: a refusal for the session stays.
    expect(sampling.review.forgetServer).toHaveBeenCalledWith('files', false);
    expect(pending.list().map((request) => request.server)).toEqual(['notes']);
    expect(consent.serversChanged).toHaveBeenCalledTimes(4);
    pending.withdrawAll('done');
    await other;
  });

  it('forgets a removed server: its requests, its sampling spending and its tool permissions', async () => {
    const { pending, consent, sampling, service } = questions();
    const asked = pending.open('tool-call', 'files', toolPayload);
    service.serverRemoved('files');
    await expect(asked).resolves.toMatchObject({ withdrawn: true, note: "server 'files' was removed" });
    expect(sampling.forgetSpending).toHaveBeenCalledWith('files');
    expect(sampling.review.forgetServer).toHaveBeenCalledWith('files', true);
    expect(consent.forgetServer).toHaveBeenCalledWith('files');
  });
});
