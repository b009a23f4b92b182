import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RootsView } from '../../shared/contract/roots';
import { pathToFileUri } from '../../app/roots/file-uri';
import { everythingServer, startRootsRig, waitUntil, type RootsRig } from './roots-harness';

/** The roots server-everything's `get-roots-list` reports, as [name, uri] pairs. */
async function reportedRoots(rig: RootsRig, server: string): Promise<Array<[string, string]>> {
  const { text, isError } = await rig.callText(server, 'get-roots-list');
  expect(isError).toBe(false);
  if (text.includes('no roots are currently configured')) return [];
  return [...text.matchAll(/^\d+\. (.+)\n\s+URI: (\S+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

/** server-everything logs each roots list it receives; wait for the `count`-th. */
const rootsUpdates = (rig: RootsRig, server: string): string[] =>
  rig.logs.texts(server, 'notification').filter((text) => text.includes('Roots updated'));

describe('roots with @modelcontextprotocol/server-everything', () => {
  let rig: RootsRig;
  let alpha: string;
  let beta: string;

  beforeEach(async () => {
    rig = await startRootsRig();
    alpha = join(rig.dir, 'alpha');
    beta = join(rig.dir, 'beta folder');
    await mkdir(alpha);
    await mkdir(beta);
  });

  afterEach(async () => {
    await rig.close();
  });

  it('get-roots-list returns exactly the roots each server was given, limited by its exposure', async () => {
    const a = await rig.roots.store.add(alpha, 'Alpha');
    const b = await rig.roots.store.add(beta);
    await rig.roots.store.setExposure('limited', [b.id]);
    await rig.supervisor.sync({ open: everythingServer(), limited: everythingServer() });
    await waitUntil(
      () => rootsUpdates(rig, 'open').length === 1 && rootsUpdates(rig, 'limited').length === 1,
      20_000,
      'both servers to fetch roots',
    );

    expect(await reportedRoots(rig, 'open')).toEqual([
      ['Alpha', pathToFileUri(alpha, process.platform)],
      ['beta folder', pathToFileUri(beta, process.platform)],
    ]);
    expect(pathToFileUri(beta, process.platform)).toContain('beta%20folder');
    expect(await reportedRoots(rig, 'limited')).toEqual([['beta folder', pathToFileUri(beta, process.platform)]]);
    // The limited server was only ever asked about the root it may see.
    expect(rig.asked.find((request) => request.server === 'limited')?.payload.roots.map((r) => r.id)).toEqual([b.id]);

    // Widening one server's exposure tells that server, and only it.
    await rig.roots.store.setExposure('limited', 'all');
    await waitUntil(() => rootsUpdates(rig, 'limited').length === 2, 20_000, 'the limited server to re-fetch');
    expect(rig.listChangedSent('limited')).toBe(1);
    expect(rig.listChangedSent('open')).toBe(0);
    expect((await reportedRoots(rig, 'limited')).map(([name]) => name)).toEqual(['Alpha', 'beta folder']);
    expect(
      rig.asked
        .filter((request) => request.server === 'limited')
        .map((request) => request.payload.roots.map((r) => r.id)),
    ).toEqual([[b.id], [a.id]]);

    // A rename changes what both see; each is told once.
    await rig.roots.store.rename(a.id, 'Alpha (renamed)');
    await waitUntil(
      () => rootsUpdates(rig, 'open').length === 2 && rootsUpdates(rig, 'limited').length === 3,
      20_000,
      'both servers to re-fetch',
    );
    expect((await reportedRoots(rig, 'open'))[0]?.[0]).toBe('Alpha (renamed)');
    expect(rig.events.filter((event) => event.topic === 'roots.changed').length).toBeGreaterThanOrEqual(4);
  });

  it('does not list a denied root, and flags and drops a folder that went missing', async () => {
    const a = await rig.roots.store.add(alpha, 'Alpha');
    const b = await rig.roots.store.add(beta, 'Beta');
    rig.decide = () => [a.id];
    await rig.supervisor.sync({ everything: everythingServer() });
    await waitUntil(() => rootsUpdates(rig, 'everything').length === 1, 20_000, 'the server to fetch roots');
    expect(await reportedRoots(rig, 'everything')).toEqual([['Alpha', pathToFileUri(alpha, process.platform)]]);
    expect(rig.roots.view().consent.everything).toEqual({ allowed: [a.id], denied: [b.id] });

    // The allowed folder disappears: the next disk check flags it and the server is told.
    const pidBefore = rig.supervisor.get('everything')?.pid;
    await rm(alpha, { recursive: true });
    const view: RootsView = await rig.roots.refresh();
    expect(view.roots.find((root) => root.id === a.id)).toMatchObject({
      missing: true,
      problem: expect.stringContaining('does not exist'),
    });
    expect(view.roots.find((root) => root.id === b.id)?.missing).toBe(false);
    await waitUntil(() => rootsUpdates(rig, 'everything').length >= 2, 20_000, 'the server to re-fetch');
    expect(rig.listChangedSent('everything')).toBe(1);
    const announced = rig.events.filter((event) => event.topic === 'roots.changed').at(-1)?.payload as RootsView;
    expect(announced.roots.find((root) => root.id === a.id)?.missing).toBe(true);
    // Its last root went away, so it is restarted (a server may keep old folders on an empty list) and starts with none.
    await waitUntil(
      () => {
        const state = rig.supervisor.get('everything');
        return state?.status === 'ready' && state.pid !== pidBefore;
      },
      20_000,
      'the server to be restarted without roots',
    );
    expect(rig.logs.texts('everything', 'host').some((text) => text.includes('no longer sees any root'))).toBe(true);
    expect(await reportedRoots(rig, 'everything')).toEqual([]);

    // It comes back: listed again, without asking (the person allowed it before).
    await mkdir(alpha);
    await rig.roots.refresh();
    const alphaListed = [['Alpha', pathToFileUri(alpha, process.platform)]];
    await waitUntil(
      async () => JSON.stringify(await reportedRoots(rig, 'everything')) === JSON.stringify(alphaListed),
      20_000,
      'the folder to be listed again',
    );
    expect(rig.asked).toHaveLength(1);
  });
});
