import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesystemServer, startRootsRig, waitUntil, type RootsRig } from './roots-harness';

/**
 * server-filesystem started with NO directory arguments: everything it may
 * read comes from the roots Berth gives it, and changes reach it through
 * `notifications/roots/list_changed`.
 */
describe('roots with @modelcontextprotocol/server-filesystem', () => {
  let rig: RootsRig;
  let alpha: string;
  let beta: string;
  let outside: string;

  beforeEach(async () => {
    rig = await startRootsRig();
    alpha = join(rig.dir, 'alpha');
    beta = join(rig.dir, 'beta');
    outside = join(rig.dir, 'outside');
    for (const folder of [alpha, beta, outside]) await mkdir(folder);
    await writeFile(join(alpha, 'a.txt'), 'alpha secret\n');
    await writeFile(join(beta, 'b.txt'), 'beta notes\n');
    await writeFile(join(outside, 'o.txt'), 'never shared\n');
  });

  afterEach(async () => {
    await rig.close();
  });

  /** server-filesystem says on stderr each time it adopts a roots list. */
  const adoptedRoots = (): string[] =>
    rig.logs.texts('fs', 'stderr').filter((text) => text.includes('Updated allowed directories from MCP roots'));

  it('reads inside a given root, not outside, and loses a root when it is removed', async () => {
    const a = await rig.roots.store.add(alpha);
    const b = await rig.roots.store.add(beta, 'Beta notes');
    await rig.supervisor.sync({ fs: filesystemServer() });
    await waitUntil(() => adoptedRoots().length === 1, 20_000, 'server-filesystem to adopt its roots');

    // The person was asked once, about both roots, before the server saw either.
    expect(rig.asked).toHaveLength(1);
    expect(rig.asked[0]?.server).toBe('fs');
    expect(rig.asked[0]?.payload.roots).toEqual([
      { id: a.id, name: 'alpha', path: alpha },
      { id: b.id, name: 'Beta notes', path: beta },
    ]);
    expect(adoptedRoots()[0]).toMatch(/2 valid directories/);

    expect(await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') })).toEqual({
      text: 'alpha secret\n',
      isError: false,
    });
    expect(await rig.callText('fs', 'read_text_file', { path: join(beta, 'b.txt') })).toEqual({
      text: 'beta notes\n',
      isError: false,
    });
    const refused = await rig.callText('fs', 'read_text_file', { path: join(outside, 'o.txt') });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/outside allowed directories/i);

    await rig.roots.store.remove(a.id);
    await waitUntil(() => adoptedRoots().length === 2, 20_000, 'server-filesystem to adopt the shorter list');
    expect(rig.listChangedSent('fs')).toBe(1);
    expect(adoptedRoots()[1]).toMatch(/1 valid directories/);
    const revoked = await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') });
    expect(revoked.isError).toBe(true);
    expect(revoked.text).toMatch(/outside allowed directories/i);
    expect((await rig.callText('fs', 'read_text_file', { path: join(beta, 'b.txt') })).isError).toBe(false);
    // Nothing new to ask about: the remaining root was allowed already.
    expect(rig.asked).toHaveLength(1);
  });

  it('taking the last root away restarts the server, since it would keep the folder on an empty list', async () => {
    const a = await rig.roots.store.add(alpha);
    await rig.supervisor.sync({ fs: filesystemServer() });
    await waitUntil(() => adoptedRoots().length === 1, 20_000, 'server-filesystem to adopt its roots');
    expect((await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') })).isError).toBe(false);
    const firstPid = rig.supervisor.get('fs')?.pid;

    await rig.roots.store.remove(a.id);
    await waitUntil(
      () => rig.supervisor.get('fs')?.status === 'ready' && rig.supervisor.get('fs')?.pid !== firstPid,
      20_000,
      'server-filesystem to be restarted',
    );
    expect(rig.logs.texts('fs', 'host').some((text) => text.includes('no longer sees any root; restarting it'))).toBe(
      true,
    );
    const revoked = await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') });
    expect(revoked.isError).toBe(true);
    // The fresh process asked once more, got nothing, and is not restarted again.
    await waitUntil(() => rig.listRequests('fs') === 3, 10_000, 'the restarted server to ask for its roots');
    expect(rig.supervisor.get('fs')?.restartCount).toBe(0);
  });

  it('never hands out a root the person denied, and asks about a new root before giving it', async () => {
    const a = await rig.roots.store.add(alpha);
    const b = await rig.roots.store.add(beta);
    rig.decide = () => [b.id];
    await rig.supervisor.sync({ fs: filesystemServer() });
    await waitUntil(() => adoptedRoots().length === 1, 20_000, 'server-filesystem to adopt its roots');
    expect(adoptedRoots()[0]).toMatch(/1 valid directories/);
    expect(rig.roots.store.consentFor('fs')).toEqual({
      allowed: [b.id],
      denied: [a.id],
      identity: expect.stringMatching(/^sha256:/),
    });
    expect((await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') })).isError).toBe(true);
    expect((await rig.callText('fs', 'read_text_file', { path: join(beta, 'b.txt') })).isError).toBe(false);

    // A new root: the server is told, asks again, and the person is asked about that root only.
    rig.decide = (request) => request.payload.roots.map((r) => r.id);
    const o = await rig.roots.store.add(outside);
    await waitUntil(() => adoptedRoots().length === 2, 20_000, 'server-filesystem to adopt the new root');
    expect(rig.asked.map((request) => request.payload.roots.map((r) => r.id))).toEqual([[a.id, b.id], [o.id]]);
    expect((await rig.callText('fs', 'read_text_file', { path: join(outside, 'o.txt') })).isError).toBe(false);
    expect((await rig.callText('fs', 'read_text_file', { path: join(alpha, 'a.txt') })).isError).toBe(true);
  });
});
