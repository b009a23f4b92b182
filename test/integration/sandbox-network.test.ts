import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxDenial } from '../../shared/domain/sandbox';
import { fixtureConfig } from '../../app/servers/test-support';
import { sandboxSkipReason, startSandboxRig, waitUntil, type SandboxRig } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-network] skipped: ${skipReason}`);

async function listen(body: string): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((_request, response) => response.end(body));
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Per-server network lists, really enforced: two sandboxed servers, each
 * allowed one loopback service. Loopback is in the sandbox's NO_PROXY, and a
 * sandbox has its own network namespace, so a direct connection reaches
 * nothing; the fixture therefore asks the sandbox's proxy explicitly, as a
 * proxy-aware client does, and that is where each list is checked.
 */
describe.skipIf(skipReason !== undefined)('network lists of sandboxed servers', () => {
  let rig: SandboxRig;
  let alpha: { server: http.Server; port: number };
  let beta: { server: http.Server; port: number };

  beforeAll(async () => {
    alpha = await listen('alpha service');
    beta = await listen('beta service');
  });

  afterAll(async () => {
    for (const { server } of [alpha, beta]) await new Promise((resolveClose) => server.close(resolveClose));
  });

  beforeEach(async () => {
    rig = await startSandboxRig();
  });

  afterEach(async () => {
    await rig.close();
  });

  it('gives each server only its own domains, and keeps each one’s proxy credentials from the other', async () => {
    await rig.setSandbox('a', { enabled: true, allowedDomains: [`127.0.0.1:${alpha.port}`] });
    await rig.setSandbox('b', { enabled: true, allowedDomains: [`127.0.0.1:${beta.port}`] });
    await rig.sync({
      a: fixtureConfig('hostile.mjs'),
      b: fixtureConfig('hostile.mjs'),
      open: fixtureConfig('hostile.mjs'),
    });
    const alphaUrl = `http://127.0.0.1:${alpha.port}/`;
    const betaUrl = `http://127.0.0.1:${beta.port}/`;
    const attempt = (server: string, args: Record<string, unknown>) => rig.callJson(server, 'attempt', args);

    expect(await attempt('a', { action: 'proxy-get', url: alphaUrl })).toEqual({ ok: true, detail: 'alpha service' });
    expect(await attempt('a', { action: 'proxy-get', url: betaUrl })).toMatchObject({
      ok: false,
      detail: expect.stringContaining('403'),
    });
    expect(await attempt('b', { action: 'proxy-get', url: betaUrl })).toEqual({ ok: true, detail: 'beta service' });
    expect(await attempt('b', { action: 'proxy-get', url: alphaUrl })).toMatchObject({
      ok: false,
      detail: expect.stringContaining('403'),
    });
    // Loopback bypasses the proxy (NO_PROXY), but the sandbox's own network namespace has no such service.
    expect(await attempt('a', { action: 'connect', url: alphaUrl })).toMatchObject({ ok: false });
    expect(await attempt('open', { action: 'connect', url: alphaUrl })).toEqual({ ok: true, detail: 'alpha service' });

    // The run's id (in b's proxy settings, on the wrapper's command line) is what the proxy knows b by: an unsandboxed process can read it, a sandboxed one cannot see b at all.
    const bPid = rig.supervisor.get('b')?.pid;
    expect(bPid).toBeTypeOf('number');
    const fromOpen = await attempt('open', { action: 'read', path: `/proc/${bPid}/cmdline` });
    expect(fromOpen).toMatchObject({ ok: true, detail: expect.stringContaining('http://srt.') });
    expect(await attempt('a', { action: 'read', path: `/proc/${bPid}/cmdline` })).toMatchObject({ ok: false });

    // Each refusal is reported for the server that made it; a loopback target gets no one-click allow.
    const denials = rig.events
      .filter((event) => event.topic === 'sandbox.denied')
      .map((event) => event.payload as SandboxDenial);
    expect(denials).toContainEqual(
      expect.objectContaining({
        server: 'a',
        kind: 'network',
        target: `127.0.0.1:${beta.port}`,
        source: 'proxy',
        noFix: expect.stringContaining('this computer'),
      }),
    );
    expect(denials).toContainEqual(
      expect.objectContaining({ server: 'b', kind: 'network', target: `127.0.0.1:${alpha.port}` }),
    );
    expect(denials).toHaveLength(2);
    expect(denials.every((denial) => denial.fix === undefined)).toBe(true);
    await expect(rig.sandbox.allow('a', { domain: `127.0.0.1:${beta.port}` })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('add it by hand'),
    });

    // Added by hand in its Sandbox tab: a is allowed beta's service too, restarts, and reaches it.
    await rig.sandbox.update('a', {
      allowedDomains: [...rig.sandbox.view('a').allowedDomains, `127.0.0.1:${beta.port}`],
    });
    await waitForRestart(rig, 'a');
    expect(await attempt('a', { action: 'proxy-get', url: betaUrl })).toEqual({ ok: true, detail: 'beta service' });
  }, 90_000);
});

describe.skipIf(skipReason !== undefined)("Berth's own ports", () => {
  let bridge: { server: http.Server; port: number };
  let rig: SandboxRig;

  beforeAll(async () => {
    // Stands for browser mode's bridge: a loopback port of Berth's own.
    bridge = await listen("Berth's bridge");
  });

  afterAll(async () => {
    await new Promise((resolveClose) => bridge.server.close(resolveClose));
  });

  afterEach(async () => {
    await rig.close();
  });

  it('are never opened to a sandboxed server: refused when typed in any spelling, left out when stored before the port was Berth’s', async () => {
    rig = await startSandboxRig({ ownPorts: () => [bridge.port] });
    // Stored earlier (the port was another service's then): left out of this run, and said.
    await rig.setSandbox('a', { enabled: true, allowedDomains: [`127.0.0.1:${bridge.port}`] });
    await rig.sync({ a: fixtureConfig('hostile.mjs') });
    expect(rig.logs.texts('a', 'host')).toContainEqual(
      expect.stringContaining(
        `127.0.0.1:${bridge.port} is left out of what it may reach: 127.0.0.1:${bridge.port} is Berth's own port`,
      ),
    );
    expect(
      await rig.callJson('a', 'attempt', { action: 'proxy-get', url: `http://127.0.0.1:${bridge.port}/` }),
    ).toMatchObject({ ok: false, detail: expect.stringContaining('403') });
    // The person removes it (a stored entry is left out, not a reason to refuse other changes); typing it again is refused.
    await rig.sandbox.update('a', { allowedDomains: [] });
    for (const spelling of [
      `127.0.0.1:${bridge.port}`,
      `localhost:${bridge.port}`,
      `127.1:${bridge.port}`,
      `2130706433:${bridge.port}`,
      `[::1]:${bridge.port}`,
      `[::ffff:127.0.0.1]:${bridge.port}`,
      `0.0.0.0:${bridge.port}`,
    ]) {
      await expect(rig.sandbox.update('a', { allowedDomains: [spelling] }), spelling).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringContaining("is Berth's own port"),
      });
      await expect(
        rig.sandbox.preset('new-one', { enabled: true, allowedDomains: [spelling] }),
        spelling,
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    // Another port of this computer, typed by hand, is still the person's to give; a private address on Berth's port number is not Berth.
    await rig.sandbox.update('a', { allowedDomains: [`127.0.0.1:${bridge.port + 1}`, `10.0.0.5:${bridge.port}`] });
    await waitForRestart(rig, 'a');
    expect(rig.sandbox.policyView('a').policy.allowedDomains).toEqual([
      `127.0.0.1:${bridge.port + 1}`,
      `10.0.0.5:${bridge.port}`,
    ]);
  }, 90_000);
});

async function waitForRestart(rig: SandboxRig, server: string): Promise<void> {
  const before = rig.logs.texts(server, 'host').filter((text) => text.startsWith('runs in the sandbox')).length;
  await waitUntil(
    () =>
      rig.logs.texts(server, 'host').filter((text) => text.startsWith('runs in the sandbox')).length > before &&
      rig.supervisor.get(server)?.status === 'ready',
    30_000,
    `${server} to restart`,
  );
}
