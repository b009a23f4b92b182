import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxDenial } from '../../shared/domain/sandbox';
import { HostError } from '../../shared/result';
import { fixtureConfig } from '../../app/servers/test-support';
import { sandboxSkipReason, startSandboxRig, waitUntil, type SandboxRig } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-allow] skipped: ${skipReason}`);

/**
 * One click cannot open the walls: a hostile server (e2e/fixtures/servers/
 * hostile.mjs) in a real bwrap sandbox forges a denial naming Berth's own
 * settings, and the folders a forged denial would ask for are refused
 * however they are asked for. What Berth keeps closed is then tried from
 * inside the sandbox.
 */
describe.skipIf(skipReason !== undefined)('allowing from a denial, against a hostile server in the OS sandbox', () => {
  let rig: SandboxRig;
  let root: string;

  beforeEach(async () => {
    rig = await startSandboxRig();
    root = join(rig.dir, 'project');
    await mkdir(root);
    await rig.roots.store.add(root);
    await writeFile(join(rig.configDir, 'config.json'), '{"mcpServers":{"planted":{"command":"secret-config"}}}\n');
  });

  afterEach(async () => {
    await rig.close();
  });

  const attempt = (args: Record<string, unknown>) => rig.callJson('boxed', 'attempt', args);
  const denials = (): SandboxDenial[] =>
    rig.events.filter((event) => event.topic === 'sandbox.denied').map((event) => event.payload as SandboxDenial);

  async function startBoxed(): Promise<void> {
    await rig.setSandbox('boxed', { enabled: true });
    await rig.sync({ boxed: fixtureConfig('hostile.mjs') });
    await runsWithItsRoots();
  }

  /** It asked for its roots; once they are allowed it restarts so that it may write there. */
  async function runsWithItsRoots(): Promise<void> {
    await waitUntil(
      () =>
        rig.logs.texts('boxed', 'host').filter((text) => text.startsWith('runs in the sandbox')).length >= 2 &&
        rig.supervisor.get('boxed')?.status === 'ready',
      30_000,
      'boxed to run with its roots',
    );
  }

  /** What a hostile server inside would go for: Berth's config (read) and its sandbox settings (write). */
  async function expectBerthFilesClosed(): Promise<void> {
    const sandboxJson = join(rig.configDir, 'sandbox.json');
    const before = await readFile(sandboxJson, 'utf8');
    const read = await attempt({ action: 'read', path: join(rig.configDir, 'config.json') });
    expect(read.ok).toBe(false);
    expect(read.detail).not.toContain('secret-config');
    // Berth's folder is hidden behind an empty in-memory one: a write there may "succeed" and never reaches the real file.
    await attempt({ action: 'write', path: sandboxJson });
    expect(await readFile(sandboxJson, 'utf8')).toBe(before);
    expect(JSON.parse(before)).toMatchObject({ servers: { boxed: { enabled: true } } });
    // The control: it does run, and may write its root.
    expect(await attempt({ action: 'write', path: join(root, 'ok.txt') })).toMatchObject({ ok: true });
  }

  it("marks a forged denial as the server's claim, offers no allow for Berth's folder, and refuses the folders it would ask for", async () => {
    await startBoxed();
    const forged = join(rig.configDir, 'sandbox.json');
    expect(
      await attempt({ action: 'say', text: `Error: EROFS: read-only file system, open '${forged}'` }),
    ).toMatchObject({ ok: true });
    // A forged line about a harmless folder is still offered, but as the server's word.
    const elsewhere = join(rig.dir, 'elsewhere');
    await attempt({ action: 'say', text: `Error: EROFS: read-only file system, open '${join(elsewhere, 'x.txt')}'` });
    await waitUntil(() => denials().length >= 2, 10_000, 'the two denials');

    const berths = denials().find((denial) => denial.target === forged);
    expect(berths).toMatchObject({
      server: 'boxed',
      kind: 'write',
      source: 'server',
      message: `the server reports the sandbox blocked a write to ${forged}`,
    });
    expect(berths?.fix).toBeUndefined();
    expect(berths?.noFix).toMatch(/inside Berth's own settings folder/);
    expect(denials().find((denial) => denial.target === join(elsewhere, 'x.txt'))).toMatchObject({
      source: 'server',
      fix: { folder: elsewhere },
    });
    expect(rig.logs.texts('boxed', 'host')).toContain(`the server reports the sandbox blocked a write to ${forged}`);

    // Whatever the renderer sends: the config folder, home's parent, home, ~/.config — each refused saying why.
    const refusals: Array<[string, RegExp]> = [
      [rig.configDir, /it is Berth's own settings folder/],
      [dirname(rig.home), /it holds your home folder/],
      [rig.home, /it is your home folder/],
      [join(rig.home, '.config'), /it holds (credentials|other programs' settings)/],
      [join(rig.configDir, 'sandbox'), /inside Berth's own settings folder/],
    ];
    for (const [folder, why] of refusals) {
      const refused = await rig.sandbox.allow('boxed', { folder }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, folder).toBeInstanceOf(HostError);
      expect((refused as HostError).code).toBe('FORBIDDEN');
      expect((refused as HostError).message).toMatch(why);
      expect((refused as HostError).message).toContain('Berth never lets a sandboxed server write there');
      // The renderer words the refusal from its code: what the folder holds is a fact, the folder as given.
      expect((refused as HostError).hostMessage, folder).toMatchObject({
        code: 'sandbox-errors.folder-protected',
        params: { folder },
      });
    }
    // Nor through the setting itself.
    await expect(rig.sandbox.update('boxed', { allowedFolders: [rig.configDir] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Berth's own settings folder/),
      hostMessage: { code: 'sandbox-errors.folder-protected', params: { folder: rig.configDir, kind: 'config' } },
    });
    expect(rig.sandbox.view('boxed').allowedFolders).toEqual([]);

    // Nothing was opened: Berth's files stay closed to it.
    await expectBerthFilesClosed();
  }, 90_000);

  it("keeps Berth's files closed even when its config folder is allowed (a setting stored before Berth refused it) and a root holds it and home", async () => {
    const other = join(rig.configDir, 'sandbox', 'other-0123456789', 'data');
    await mkdir(other, { recursive: true });
    await mkdir(join(rig.home, 'Projects'));
    await rig.setSandbox('boxed', { enabled: true, allowedFolders: [rig.configDir] });
    // The folder that holds both home and Berth's config folder, given as a root.
    await rig.roots.store.add(rig.dir);
    await rig.sync({ boxed: fixtureConfig('hostile.mjs') });
    await waitUntil(
      () =>
        rig.logs
          .texts('boxed', 'host')
          .some((text) => text.includes(`the folder ${rig.configDir} is left out of what it may write`)),
      20_000,
      'the warning about the stored folder',
    );
    await runsWithItsRoots();
    // The control: a folder of home's is writable through the root (home itself takes no new name: sandbox-startup-files.test.ts).
    expect(await attempt({ action: 'write', path: join(rig.home, 'Projects', 'notes.txt') })).toMatchObject({
      ok: true,
    });
    // A new name in Berth's folder never reaches it either.
    await attempt({ action: 'write', path: join(rig.configDir, 'registries.json') });
    expect(existsSync(join(rig.configDir, 'registries.json'))).toBe(false);
    await expectBerthFilesClosed();
    // Another server's own folder stays closed too.
    await attempt({ action: 'write', path: join(other, 'planted.js') });
    expect(existsSync(join(other, 'planted.js'))).toBe(false);
  }, 90_000);
});
