import { describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import type { HostMessage } from '../../shared/domain/host-message';
import { pendingError } from '../../shared/domain/pending-errors';
import type { PendingChange, PendingPayload } from '../../shared/domain/pending';
import { withdrawal } from '../../shared/domain/withdrawal';
import { PendingRequests } from './pending-requests';

const toolPayload: PendingPayload<'tool-call'> = {
  server: 'files',
  serverTrusted: false,
  tool: 'write_file',
  annotationsTrusted: false,
  arguments: { path: '/tmp/x', content: 'hi' },
};

const formPayload: PendingPayload<'elicitation'> = {
  mode: 'form',
  message: 'Who are you?',
  fields: [{ name: 'name', label: 'Name', required: true, kind: 'string' }],
};

function queue(): PendingRequests {
  let next = 0;
  return new PendingRequests({ newId: () => `req-${++next}`, now: () => 1_000 });
}

function expectHostError(run: () => unknown, code: string, text?: RegExp, hostMessage?: HostMessage): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe(code);
    if (text !== undefined) expect((error as HostError).message).toMatch(text);
    if (hostMessage !== undefined) expect((error as HostError).hostMessage).toEqual(hostMessage);
    return;
  }
  throw new Error(`expected a HostError ${code}`);
}

describe('PendingRequests', () => {
  it('lists a request with its server, conversation and tool use, and resolves with the answer', async () => {
    const pending = queue();
    const outcome = pending.open('tool-call', 'files', toolPayload, { conversationId: 'c1', toolUseId: 'tu1' });
    expect(pending.list()).toEqual([
      {
        id: 'req-1',
        kind: 'tool-call',
        server: 'files',
        conversationId: 'c1',
        toolUseId: 'tu1',
        createdAt: 1_000,
        payload: toolPayload,
      },
    ]);
    pending.answer('req-1', { decision: 'allow-once' });
    await expect(outcome).resolves.toEqual({ decision: 'allow-once' });
    expect(pending.list()).toEqual([]);
  });

  it('refuses an answer for an unknown id with NOT_FOUND', () => {
    expectHostError(() => queue().answer('nope', { decision: 'deny' }), 'NOT_FOUND', /no pending request 'nope'/);
  });

  it('refuses an answer of the wrong shape with INVALID_INPUT and keeps the request open', async () => {
    const pending = queue();
    const outcome = pending.open('tool-call', 'files', toolPayload);
    expectHostError(() => pending.answer('req-1', { decision: 'maybe' }), 'INVALID_INPUT', /tool-call/);
    expectHostError(
      () => pending.answer('req-1', { decision: 'allow-once', arguments: [1, 2] }),
      'INVALID_INPUT',
      /^answer to a tool-call request at arguments: /,
      {
        code: 'pending-errors.answer-invalid-at',
        params: { kind: 'tool-call', path: 'arguments', detail: expect.any(String) as string },
      },
    );
    // An answer meant for another kind is the wrong shape too.
    expectHostError(() => pending.answer('req-1', { action: 'accept' }), 'INVALID_INPUT');
    expect(pending.counts().total).toBe(1);
    pending.answer('req-1', { decision: 'deny', reason: 'not now' });
    await expect(outcome).resolves.toEqual({ decision: 'deny', reason: 'not now' });
  });

  it('runs the extra validator and keeps the request open when it complains', async () => {
    const pending = queue();
    const outcome = pending.open('elicitation', 'srv', formPayload, {
      validate: (response) =>
        response.action === 'accept' && !response.content?.name
          ? pendingError('pending-errors.field-required', { field: 'Name', verb: 'enter' })
          : undefined,
    });
    expectHostError(
      () => pending.answer('req-1', { action: 'accept', content: {} }),
      'INVALID_INPUT',
      /^Enter a value for Name: it is required$/,
      { code: 'pending-errors.field-required', params: { field: 'Name', verb: 'enter' } },
    );
    pending.answer('req-1', { action: 'accept', content: { name: 'Ada' } });
    await expect(outcome).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('withdraws every request of a disconnected server with the note, leaving others waiting', async () => {
    const pending = queue();
    const a = pending.open('tool-call', 'files', toolPayload);
    const b = pending.open('elicitation', 'files', formPayload);
    const c = pending.open('elicitation', 'other', formPayload);
    expect(pending.withdrawServer('files', 'server disconnected')).toBe(2);
    await expect(a).resolves.toEqual({ withdrawn: true, note: 'server disconnected' });
    await expect(b).resolves.toEqual({ withdrawn: true, note: 'server disconnected' });
    expect(pending.list().map((r) => r.server)).toEqual(['other']);
    expect(pending.withdrawAll('window closed')).toBe(1);
    await expect(c).resolves.toEqual({ withdrawn: true, note: 'window closed' });
    expect(pending.withdraw('req-3', 'again')).toBe(false);
  });

  it('withdraws a request when its signal aborts, with the reason as the note', async () => {
    const pending = queue();
    const controller = new AbortController();
    const outcome = pending.open('tool-call', 'files', toolPayload, { signal: controller.signal });
    controller.abort('the server cancelled the request');
    await expect(outcome).resolves.toEqual({ withdrawn: true, note: 'the server cancelled the request' });
    expect(pending.counts().total).toBe(0);
    expectHostError(() => pending.answer('req-1', { decision: 'allow-once' }), 'NOT_FOUND');
  });

  it('resolves at once when the signal is already aborted, and a plain abort gets a readable note', async () => {
    const pending = queue();
    const controller = new AbortController();
    controller.abort();
    await expect(pending.open('tool-call', 'files', toolPayload, { signal: controller.signal })).resolves.toEqual({
      withdrawn: true,
      note: 'the request was cancelled',
      noteMessage: { code: 'withdrawal.cancelled' },
    });
    expect(pending.list()).toEqual([]);
  });

  it('refuses more than maxPerServer waiting requests from one server', async () => {
    const pending = new PendingRequests({ maxPerServer: 2 });
    void pending.open('elicitation', 'flood', formPayload);
    void pending.open('elicitation', 'flood', formPayload);
    await expect(pending.open('elicitation', 'flood', formPayload)).resolves.toEqual({
      withdrawn: true,
      note: "server 'flood' already has 2 requests waiting; this one was refused",
      noteMessage: { code: 'withdrawal.too-many-waiting', params: { server: 'flood', count: 2 } },
    });
    void pending.open('elicitation', 'calm', formPayload);
    expect(pending.counts()).toEqual({
      'tool-call': 0,
      sampling: 0,
      'sampling-answer': 0,
      elicitation: 3,
      'root-consent': 0,
      skill: 0,
      total: 3,
    });
  });

  it('reports every change with the counts after it', () => {
    const pending = queue();
    const changes: PendingChange[] = [];
    const stop = pending.onChange((change) => changes.push(change));
    void pending.open('tool-call', 'files', toolPayload);
    void pending.open('elicitation', 'files', formPayload);
    pending.answer('req-1', { decision: 'deny' });
    pending.withdraw('req-2', 'gone');
    stop();
    void pending.open('tool-call', 'files', toolPayload);
    expect(changes.map((c) => [c.change.type, c.counts.total, c.counts['tool-call'], c.counts.elicitation])).toEqual([
      ['opened', 1, 1, 0],
      ['opened', 2, 1, 1],
      ['answered', 1, 0, 1],
      ['withdrawn', 0, 0, 0],
    ]);
    expect(changes[3]?.change).toEqual({
      type: 'withdrawn',
      id: 'req-2',
      kind: 'elicitation',
      server: 'files',
      note: 'gone',
    });
  });

  it('tells the renderer the code of a note the host wrote, beside its English', () => {
    const pending = queue();
    const changes: PendingChange[] = [];
    pending.onChange((change) => changes.push(change));
    void pending.open('elicitation', 'files', formPayload);
    pending.withdrawServer('files', withdrawal('withdrawal.server-removed', { server: 'files' }));
    expect(changes.at(-1)?.change).toEqual({
      type: 'withdrawn',
      id: 'req-1',
      kind: 'elicitation',
      server: 'files',
      note: "server 'files' was removed",
      noteMessage: { code: 'withdrawal.server-removed', params: { server: 'files' } },
    });
  });

  it('rejects a payload that does not match the contract as a bug', () => {
    const pending = queue();
    const bad = { ...toolPayload, arguments: 'not an object' } as unknown as PendingPayload<'tool-call'>;
    expectHostError(() => pending.open('tool-call', 'files', bad), 'INTERNAL', /arguments/);
  });
});
