import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost } from './host';

describe('createHost', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-host-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a call made while it shuts down with a coded refusal, in the English it always wrote', async () => {
    const host = await createHost({ shell: 'browser', configDir: dir, env: { HOME: dir } });
    expect((await host.dispatch('roots.list', {})).ok).toBe(true);
    const closing = host.shutdown();
    expect(await host.dispatch('roots.list', {})).toEqual({
      ok: false,
      code: 'NOT_READY',
      message: 'Berth is shutting down',
      hostMessage: { code: 'bridge-errors.shutting-down', params: {} },
    });
    await closing;
  });
});
