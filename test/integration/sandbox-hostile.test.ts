import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxDenial } from '../../shared/domain/sandbox';
import { fixtureConfig } from '../../app/servers/test-support';
import { pidsWithMarker, sandboxSkipReason, startSandboxRig, waitUntil, type SandboxRig } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-hostile] skipped: ${skipReason}`);

/**
 * A hostile server of ours (e2e/fixtures/servers/hostile.mjs) tries what a
 * compromised package would. Each attempt is made twice: by the same server
 * in the sandbox ("boxed") and out of it ("open"). The open run succeeding
 * is what makes each "blocked" meaningful.
 */
describe.skipIf(skipReason !== undefined)('a hostile server in the OS sandbox', () => {
  let rig: SandboxRig;
  let loopback: http.Server;
  let port: number;
  let root: string;
  let outside: string;
  const marker = `berth-grandchild-${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    loopback = http.createServer((_request, response) => response.end('secret from a loopback service'));
    await new Promise<void>((resolveListen) => loopback.listen(0, '127.0.0.1', resolveListen));
    port = (loopback.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolveClose) => loopback.close(resolveClose));
  });

  beforeEach(async () => {
    rig = await startSandboxRig();
    root = join(rig.dir, 'project');
    outside = join(rig.dir, 'elsewhere');
    await mkdir(root);
    await mkdir(outside);
    await rig.roots.store.add(root);
  });

  afterEach(async () => {
    await rig.close();
    // The open server's grandchild outlives it by design: it is ours to end.
    for (const pid of await pidsWithMarker(marker)) process.kill(pid, 'SIGKILL');
  });

  it('blocks each attempt when sandboxed; the same attempts succeed with the sandbox off', async () => {
    await rig.setSandbox('boxed', { enabled: true });
    await rig.sync({ boxed: fixtureConfig('hostile.mjs'), open: fixtureConfig('hostile.mjs') });
    // The boxed server asked for its roots; once allowed, it restarts so that it may write there.
    await waitUntil(
      () =>
        rig.logs
          .texts('boxed', 'host')
          .some((text) => text.includes('restarting it in the sandbox: the folders it was given changed')),
      20_000,
      'the restart for its roots',
    );
    await waitUntil(
      () =>
        rig.logs.texts('boxed', 'host').filter((text) => text.startsWith('runs in the sandbox')).length >= 2 &&
        rig.supervisor.get('boxed')?.status === 'ready',
      30_000,
      'boxed to run again',
    );

    const attempt = (server: string, args: Record<string, unknown>) => rig.callJson(server, 'attempt', args);
    const id_rsa = join(rig.home, '.ssh', 'id_rsa');
    const bashrc = join(rig.home, '.bashrc');

    // Its own root: writable in the sandbox too (the control for "blocked").
    expect(await attempt('boxed', { action: 'write', path: join(root, 'notes.txt') })).toMatchObject({ ok: true });

    // 1. Read a planted SSH key.
    expect(await attempt('open', { action: 'read', path: id_rsa })).toMatchObject({
      ok: true,
      detail: expect.stringContaining('planted'),
    });
    const read = await attempt('boxed', { action: 'read', path: id_rsa });
    expect(read.ok).toBe(false);
    expect(read.detail).not.toContain('planted');

    // 2. Write outside its roots.
    expect(await attempt('open', { action: 'write', path: join(outside, 'open.txt') })).toMatchObject({ ok: true });
    const written = await attempt('boxed', { action: 'write', path: join(outside, 'boxed.txt') });
    expect(written).toMatchObject({ ok: false, detail: expect.stringMatching(/EROFS|read-only/i) });
    expect(existsSync(join(outside, 'boxed.txt'))).toBe(false);

    // 3. Write a new ~/.bashrc.
    expect(await attempt('boxed', { action: 'write', path: bashrc })).toMatchObject({ ok: false });
    expect(existsSync(bashrc)).toBe(false);
    expect(await attempt('open', { action: 'write', path: bashrc })).toMatchObject({ ok: true });
    expect(existsSync(bashrc)).toBe(true);

    // 4. Reach a loopback port it was not given: directly, and through the sandbox's proxy.
    const url = `http://127.0.0.1:${port}/`;
    expect(await attempt('open', { action: 'connect', url })).toMatchObject({
      ok: true,
      detail: 'secret from a loopback service',
    });
    expect(await attempt('boxed', { action: 'connect', url })).toMatchObject({ ok: false });
    expect(await attempt('boxed', { action: 'proxy-get', url })).toMatchObject({
      ok: false,
      detail: expect.stringContaining('403'),
    });

    // 5. Leave a grandchild running after it is stopped.
    expect(await attempt('open', { action: 'grandchild', marker: `${marker}-open` })).toMatchObject({ ok: true });
    expect(await attempt('boxed', { action: 'grandchild', marker: `${marker}-boxed` })).toMatchObject({ ok: true });
    await waitUntil(
      async () => (await pidsWithMarker(`${marker}-boxed`)).length === 1,
      5_000,
      'the boxed grandchild to run',
    );
    // The denials come on stderr and from the sandbox's proxy, apart from the answers above (stderr is another pipe than
    // stdout): wait for each while the server still runs, as one seen after it stopped is not its run's.
    const deniedTargets = (): string[] =>
      rig.events
        .filter((event) => event.topic === 'sandbox.denied')
        .map((event) => (event.payload as SandboxDenial).target);
    const expectedTargets = [id_rsa, join(outside, 'boxed.txt'), bashrc, `127.0.0.1:${port}`];
    await waitUntil(
      () => expectedTargets.every((target) => deniedTargets().includes(target)),
      10_000,
      'the four denials',
    );
    await rig.supervisor.sync({});
    await waitUntil(
      async () => (await pidsWithMarker(`${marker}-boxed`)).length === 0,
      10_000,
      'the boxed grandchild to be gone',
    );
    // It left through stdin's end (clean shutdown through the sandbox), not by a signal.
    expect(rig.logs.texts('boxed', 'host').at(-1)).toBe('stopped: exited with code 0');
    expect(await pidsWithMarker(`${marker}-open`)).toHaveLength(1);

    // The denials were recognised, worded, and offered a fix where one makes sense.
    const denials = rig.events
      .filter((event) => event.topic === 'sandbox.denied')
      .map((event) => event.payload as SandboxDenial);
    // Read from its own stderr: worded as the server's claim.
    expect(denials).toContainEqual(
      expect.objectContaining({
        server: 'boxed',
        kind: 'read',
        target: id_rsa,
        source: 'server',
        message: 'the server reports the sandbox blocked a read of ~/.ssh/id_rsa',
      }),
    );
    expect(denials.find((denial) => denial.kind === 'read')?.fix).toBeUndefined();
    expect(denials).toContainEqual(
      expect.objectContaining({
        server: 'boxed',
        kind: 'write',
        target: join(outside, 'boxed.txt'),
        fix: { folder: outside },
      }),
    );
    expect(denials).toContainEqual(expect.objectContaining({ server: 'boxed', kind: 'write', target: bashrc }));
    expect(denials.find((denial) => denial.target === bashrc)?.fix).toBeUndefined();
    // Seen by the sandbox's own proxy; loopback is never offered with one click (Berth's own bridge listens there).
    expect(denials).toContainEqual(
      expect.objectContaining({
        server: 'boxed',
        kind: 'network',
        target: `127.0.0.1:${port}`,
        source: 'proxy',
        message: `blocked by the sandbox: connection to 127.0.0.1:${port}`,
      }),
    );
    expect(denials.find((denial) => denial.kind === 'network')?.fix).toBeUndefined();
    expect(denials.every((denial) => denial.server === 'boxed')).toBe(true);
    expect(rig.logs.texts('boxed', 'host')).toContain(
      `the server reports the sandbox blocked a write to ${join(outside, 'boxed.txt')}`,
    );
  }, 120_000);

  it('never starts a sandboxed server unsandboxed when the sandbox is unavailable', async () => {
    await rig.close();
    rig = await startSandboxRig({
      support: async () => ({
        available: false,
        platform: 'linux',
        reason: 'missing on this machine: bubblewrap (bwrap) not installed',
        install: 'Install bubblewrap',
        warnings: [],
      }),
    });
    await rig.setSandbox('boxed', { enabled: true });
    await rig.supervisor.sync({ boxed: fixtureConfig('hostile.mjs') });
    const state = await waitUntil(() => {
      const current = rig.supervisor.get('boxed');
      return current?.status === 'error' ? current : undefined;
    });
    expect(state.reason).toMatch(
      /set to run in the sandbox, which is unavailable here: missing on this machine: bubblewrap.*Install bubblewrap.*not started without it/,
    );
    expect(state.pid).toBeUndefined();
  });
});
