import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxDenial } from '../../shared/domain/sandbox';
import { serverConfig } from '../../app/servers/test-support';
import { packageBin } from './roots-harness';
import { sandboxSkipReason, startSandboxRig, waitUntil, type SandboxRig } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-filesystem] skipped: ${skipReason}`);

/**
 * The real @modelcontextprotocol/server-filesystem, started with the whole
 * disk as its own allowed directory, so that only the sandbox stands
 * between it and a folder it was not given: writable inside its root,
 * read-only outside, the SSH key unreadable; then one "allow" from the
 * denial, and the same write succeeds.
 */
describe.skipIf(skipReason !== undefined)('server-filesystem in the sandbox', () => {
  let rig: SandboxRig;
  let root: string;
  let outside: string;

  beforeEach(async () => {
    rig = await startSandboxRig();
    root = join(rig.dir, 'root');
    outside = join(rig.dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
  });

  afterEach(async () => {
    await rig.close();
  });

  const fsServer = () =>
    serverConfig({
      command: process.execPath,
      args: [packageBin('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem'), '/'],
    });
  const runs = (): number =>
    rig.logs.texts('fs', 'host').filter((text) => text.startsWith('runs in the sandbox')).length;

  it('works inside its root and fails outside it; one allow fixes a denied folder', async () => {
    await rig.setSandbox('fs', { enabled: true, allowedFolders: [root] });
    await rig.sync({ fs: fsServer() });

    const inside = await rig.callText('fs', 'write_file', { path: join(root, 'in.txt'), content: 'inside' });
    expect(inside.isError).toBe(false);
    expect(await readFile(join(root, 'in.txt'), 'utf8')).toBe('inside');

    const denied = await rig.callText('fs', 'write_file', { path: join(outside, 'out.txt'), content: 'outside' });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/EROFS|read-only/i);
    expect(existsSync(join(outside, 'out.txt'))).toBe(false);

    const key = await rig.callText('fs', 'read_text_file', { path: join(rig.home, '.ssh', 'id_rsa') });
    expect(key.isError).toBe(true);
    expect(key.text).not.toContain('planted');
    // Reads elsewhere stay open (the system, its own package, other folders).
    expect((await rig.callText('fs', 'list_directory', { path: rig.dir })).text).toContain('outside');

    // server-filesystem answers the error in the tool result, not on stderr: Berth reads it there too.
    const denials = rig.events
      .filter((event) => event.topic === 'sandbox.denied')
      .map((event) => event.payload as SandboxDenial);
    const write = denials.find((denial) => denial.kind === 'write');
    expect(write).toMatchObject({ server: 'fs', target: join(outside, 'out.txt'), fix: { folder: outside } });
    expect(denials).toContainEqual(expect.objectContaining({ kind: 'read', target: join(rig.home, '.ssh', 'id_rsa') }));

    // The denial card's one action.
    const before = runs();
    if (write?.fix === undefined || !('folder' in write.fix)) throw new Error('no folder to allow');
    await rig.sandbox.allow('fs', write.fix);
    await waitUntil(
      () => runs() > before && rig.supervisor.get('fs')?.status === 'ready',
      30_000,
      'fs to restart with the folder allowed',
    );
    expect(
      (await rig.callText('fs', 'write_file', { path: join(outside, 'out.txt'), content: 'outside' })).isError,
    ).toBe(false);
    expect(await readFile(join(outside, 'out.txt'), 'utf8')).toBe('outside');
    expect(rig.sandbox.policyView('fs').words.write).toContain(outside);
  }, 90_000);

  it('with the sandbox off, the same server writes outside and reads the key (the control)', async () => {
    await rig.sync({ fs: fsServer() });
    expect(
      (await rig.callText('fs', 'write_file', { path: join(outside, 'out.txt'), content: 'outside' })).isError,
    ).toBe(false);
    expect((await rig.callText('fs', 'read_text_file', { path: join(rig.home, '.ssh', 'id_rsa') })).text).toContain(
      'planted',
    );
    expect(rig.events.filter((event) => event.topic === 'sandbox.denied')).toEqual([] satisfies SandboxDenial[]);
  }, 60_000);
});
