import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxPolicyView, SandboxServerSettingsView } from '../../shared/contract/sandbox';
import type { SandboxSupport } from '../../shared/domain/sandbox';
import type { ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { hostPerTest } from './host-harness';
import { sandboxSkipReason } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[host-sandbox] skipped: ${skipReason}`);

const world = hostPerTest('berth-host-sandbox-');
const hostile = { command: process.execPath, args: [fixture('hostile.mjs')] };

describe('the sandbox through the host', () => {
  it('refuses bad settings in words, and leaves HTTP servers alone', async () => {
    const harness = await world.start();
    await harness.call('servers.add', { name: 'remote', config: { url: 'http://127.0.0.1:9/mcp', enabled: false } });
    await harness.call('servers.add', { name: 'local', config: { ...hostile, enabled: false } });
    expect(await harness.host.dispatch('sandbox.setServerSettings', { server: 'ghost', enabled: true })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect(await harness.host.dispatch('sandbox.setServerSettings', { server: 'remote', enabled: true })).toMatchObject(
      { ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('remote (HTTP) server runs elsewhere') },
    );
    expect(
      await harness.host.dispatch('sandbox.setServerSettings', { server: 'local', allowedFolders: ['/'] }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('whole disk') });
    expect(
      await harness.host.dispatch('sandbox.setServerSettings', { server: 'local', allowedDomains: ['https://x.com/'] }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(
      await harness.host.dispatch('sandbox.allow', {
        server: 'local',
        folder: join(process.env.HOME ?? '/root', '.ssh'),
      }),
    ).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const list = await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {});
    expect(list).toEqual([
      { server: 'local', applies: true, enabled: false, allowedFolders: [], allowedDomains: [], offered: false },
      { server: 'remote', applies: false, enabled: false, allowedFolders: [], allowedDomains: [], offered: false },
    ]);
  });

  it.skipIf(skipReason !== undefined)(
    'turning it on restarts the running server in the sandbox, with the policy in words; removing the server forgets it',
    async () => {
      const harness = await world.start();
      expect(await harness.call<SandboxSupport>('sandbox.support', {})).toMatchObject({
        available: true,
        platform: 'linux',
      });
      await harness.call<ServerState>('servers.add', { name: 'local', config: hostile });
      const first = await harness.waitForEvent('servers.changed', (s) => s.name === 'local' && s.status === 'ready');

      const saved = await harness.call<SandboxServerSettingsView>('sandbox.setServerSettings', {
        server: 'local',
        enabled: true,
        allowedDomains: ['api.github.com'],
        offered: true,
      });
      expect(saved).toMatchObject({
        server: 'local',
        applies: true,
        enabled: true,
        allowedDomains: ['api.github.com'],
        offered: true,
      });
      await harness.waitForEvent('sandbox.serverSettingsChanged', (s) => s.server === 'local' && s.enabled);
      const restarted = await harness.waitForEvent(
        'servers.changed',
        (s) => s.name === 'local' && s.status === 'ready' && s.pid !== undefined && s.pid !== first.pid,
        30_000,
      );
      expect(restarted.pid).toBeDefined();
      const logs = await harness.call<{ entries: Array<{ text: string }> }>('logs.query', {
        server: 'local',
        sources: ['host'],
      });
      const texts = logs.entries.map((entry) => entry.text);
      expect(texts.some((text) => /spawned pid \d+: .*hostile\.mjs \(in the sandbox\)$/.test(text))).toBe(true);
      // The wrapper's command line (with the proxy's per-run credentials) is never logged.
      expect(texts.some((text) => text.includes('bwrap') || text.includes('srt.'))).toBe(false);

      const view = await harness.call<SandboxPolicyView>('sandbox.policy', { server: 'local' });
      expect(view.words).toMatchObject({
        network: 'Network only to: api.github.com',
        write: 'Can change files only in its own folders (data, temporary files, cache)',
      });
      expect(view.policy.denyRead).toContain(world.dir);
      const own = view.policy.allowWrite[0] ?? '';
      expect(existsSync(own)).toBe(true);
      expect(JSON.parse(await readFile(join(world.dir, 'sandbox.json'), 'utf8'))).toMatchObject({
        servers: { local: { enabled: true } },
      });

      await harness.call('servers.remove', { name: 'local' });
      await harness.waitForEvent('sandbox.serverSettingsChanged', (s) => s.server === 'local' && !s.enabled);
      expect(existsSync(own)).toBe(false);
    },
    60_000,
  );

  it.skipIf(skipReason !== undefined)(
    'a server added with the sandbox chosen in its review starts sandboxed the first time',
    async () => {
      const harness = await world.start();
      // Outside Berth's config folder (inside it, a write lands in the empty folder the sandbox mounts over it, and is gone).
      const target = join(tmpdir(), `berth-sandbox-outside-${process.pid}.txt`);
      await harness.call('servers.add', {
        name: 'fresh',
        config: { ...hostile, env: { HOSTILE_WRITE_ON_START: target } },
        sandbox: { enabled: true, allowedDomains: ['registry.npmjs.org'] },
      });
      await harness.waitForEvent('servers.changed', (s) => s.name === 'fresh' && s.status === 'ready', 30_000);
      const logs = await harness.call<{ entries: Array<{ text: string }> }>('logs.query', {
        server: 'fresh',
        sources: ['host'],
      });
      const spawned = logs.entries.map((entry) => entry.text).filter((text) => text.startsWith('spawned pid'));
      expect(spawned).toHaveLength(1);
      expect(spawned[0]).toMatch(/\(in the sandbox\)$/);
      // Its stderr reached the sandbox through the host's log batches: the denial is an event, a log line and in sandbox.denials.
      const denial = await harness.waitForEvent('sandbox.denied', (d) => d.server === 'fresh');
      // Read from its stderr: the server's claim. Its folder (the temp folder) holds this test's Berth config folder, so no one-click allow.
      expect(denial).toMatchObject({
        kind: 'write',
        target,
        source: 'server',
        noFix: expect.stringContaining("holds Berth's own settings folder"),
      });
      expect(denial.fix).toBeUndefined();
      expect(await harness.call('sandbox.denials', { server: 'fresh' })).toEqual([denial]);
      expect(existsSync(target)).toBe(false);
      expect(await harness.call<SandboxServerSettingsView[]>('sandbox.serverSettings', {})).toEqual([
        {
          server: 'fresh',
          applies: true,
          enabled: true,
          allowedFolders: [],
          allowedDomains: ['registry.npmjs.org'],
          offered: true,
        },
      ]);
      // A choice for a name that is taken is not applied to the server that has it.
      expect(
        await harness.host.dispatch('servers.add', { name: 'fresh', config: hostile, sandbox: { enabled: false } }),
      ).toMatchObject({ ok: false, code: 'CONFLICT' });
      expect(JSON.parse(await readFile(join(world.dir, 'sandbox.json'), 'utf8')).servers.fresh).toMatchObject({
        enabled: true,
      });
    },
    60_000,
  );
});
