import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingPayload } from '../../shared/domain/pending';
import { PendingRequests } from './pending-requests';
import { WindowGrace } from './window-grace';

const toolPayload: PendingPayload<'tool-call'> = {
  server: 'files',
  serverTrusted: false,
  tool: 'write_file',
  annotationsTrusted: false,
  arguments: {},
};

describe('WindowGrace', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('withdraws what waits once no window has come back for the grace period, then refuses new requests until one does', async () => {
    const pending = new PendingRequests();
    const grace = new WindowGrace(pending, 1_000);
    const waiting = pending.open('tool-call', 'files', toolPayload);
    grace.clientsChanged(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(pending.list()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waiting).resolves.toMatchObject({ withdrawn: true, note: 'the Berth window was closed' });

    await expect(pending.open('tool-call', 'files', toolPayload)).resolves.toMatchObject({
      withdrawn: true,
      note: 'no Berth window is open to answer it',
    });

    grace.clientsChanged(1);
    const kept = pending.open('tool-call', 'files', toolPayload);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pending.list()).toHaveLength(1);
    pending.withdrawAll('done');
    await kept;
  });

  it('keeps the requests of a window that comes back within the grace period, and does nothing once closed', async () => {
    const pending = new PendingRequests();
    const grace = new WindowGrace(pending, 1_000);
    const waiting = pending.open('tool-call', 'files', toolPayload);
    grace.clientsChanged(0);
    await vi.advanceTimersByTimeAsync(500);
    grace.clientsChanged(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(pending.list()).toHaveLength(1);

    grace.close();
    grace.clientsChanged(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(pending.list()).toHaveLength(1);
    pending.withdrawAll('done');
    await waiting;
  });
});
