import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FolderListing, RootsView } from '../../shared/contract/roots';
import type { LogEntry } from '../../shared/domain/log';
import type { PendingChange, PendingRequestOf } from '../../shared/domain/pending';
import type { RootView } from '../../shared/domain/roots';
import { hostPerTest, waitFor } from './host-harness';
import { everythingServer } from './roots-harness';

/** Roots through the real host: the contract methods, the pending question, and the server hearing about changes. */
describe('roots in the host', () => {
  // Real path: roots are stored as real paths, and the temp folder may sit behind a link (macOS /var).
  const berth = hostPerTest('berth-roots-host-', { realPath: true });

  const rootsUpdates = async (server: string): Promise<string[]> => {
    const { entries } = await berth.harness.call<{ entries: LogEntry[] }>('logs.query', {
      server,
      sources: ['notification'],
    });
    return entries.map((entry) => entry.text).filter((text) => text.includes('Roots updated'));
  };

  /** The first root-consent question opened after event number `mark`. */
  const nextRootConsent = async (mark: number): Promise<PendingRequestOf<'root-consent'>> => {
    const opened = (): PendingRequestOf<'root-consent'> | undefined => {
      for (const event of berth.harness.events.slice(mark)) {
        if (event.topic !== 'pending.changed') continue;
        const { change } = event.payload as PendingChange;
        if (change.type === 'opened' && change.request.kind === 'root-consent') return change.request;
      }
      return undefined;
    };
    await waitFor(() => opened() !== undefined);
    const request = opened();
    if (request === undefined) throw new Error('the root-consent question vanished');
    return request;
  };

  it('refuses a missing folder with a coded failure the renderer words, the English beside it', async () => {
    const harness = await berth.start();
    const gone = join(berth.dir, 'gone');
    expect(await harness.host.dispatch('roots.add', { path: gone })).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: `Cannot add this root: the folder ${gone} does not exist`,
      path: 'path',
      hostMessage: { code: 'root-errors.cannot-add', params: { path: gone, problem: 'missing', detail: '' } },
    });
    expect(await harness.host.dispatch('roots.browse', { path: gone })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: `There is no folder at ${gone}`,
      hostMessage: { code: 'root-errors.browse-missing', params: { path: gone } },
    });
    expect(await harness.host.dispatch('roots.remove', { id: 'no-such-root' })).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: "no root 'no-such-root': it may have been removed already",
      path: 'id',
      hostMessage: { code: 'root-errors.removed-already', params: { id: 'no-such-root' } },
    });
  });

  it('asks the person, hands the allowed root to the server, tells it about removal, and forgets a removed server', async () => {
    const harness = await berth.start();
    const project = join(berth.dir, 'project');
    await mkdir(project);
    const added = await harness.call<RootView>('roots.add', { path: `${project}/`, name: 'Project' });
    expect(added).toMatchObject({ path: project, name: 'Project', missing: false });
    expect((await harness.call<RootsView>('roots.list', {})).roots.map((root) => root.id)).toEqual([added.id]);
    await harness.waitForEvent('roots.changed', (view) => view.roots.some((root) => root.id === added.id));
    const saved = JSON.parse(await readFile(join(berth.dir, 'state', 'roots.json'), 'utf8')) as {
      roots: Array<{ path: string }>;
    };
    expect(saved.roots.map((root) => root.path)).toEqual([project]);

    const mark = harness.events.length;
    await harness.call('servers.add', { name: 'everything', config: everythingServer() });
    const asked = await nextRootConsent(mark);
    expect(asked.server).toBe('everything');
    expect(asked.payload.roots).toEqual([{ id: added.id, name: 'Project', path: project }]);
    // Nothing reaches the server before the person answers.
    expect(await rootsUpdates('everything')).toEqual([]);

    // An answer naming a root that was not asked about is refused; the question stays open.
    const wrong = await harness.host.dispatch('pending.answer', { id: asked.id, response: { allow: ['not-asked'] } });
    expect(wrong).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('not-asked') });
    await harness.call('pending.answer', { id: asked.id, response: { allow: [added.id] } });
    await waitFor(async () => (await rootsUpdates('everything')).length === 1);
    expect((await rootsUpdates('everything'))[0]).toMatch(/1 root\(s\)/);
    expect((await harness.call<RootsView>('roots.list', {})).consent.everything).toEqual({
      allowed: [added.id],
      denied: [],
    });

    // A rename reaches the server without asking again (the root was allowed).
    expect(await harness.call<RootView>('roots.rename', { id: added.id, name: 'Renamed' })).toMatchObject({
      id: added.id,
      name: 'Renamed',
    });
    await waitFor(async () => (await rootsUpdates('everything')).length === 2);

    // Forgetting the answers makes the server re-list and the person is asked again; this time they say no.
    const beforeReset = harness.events.length;
    const reset = await harness.call<RootsView>('roots.resetConsent', { server: 'everything' });
    expect(reset.consent.everything).toBeUndefined();
    const askedAgain = await nextRootConsent(beforeReset);
    expect(askedAgain.payload.roots).toEqual([{ id: added.id, name: 'Renamed', path: project }]);
    await harness.call('pending.answer', { id: askedAgain.id, response: { allow: [] } });
    await waitFor(async () => (await rootsUpdates('everything')).length === 3);
    expect((await rootsUpdates('everything'))[2]).toMatch(/0 root\(s\)/);
    expect((await harness.call<RootsView>('roots.list', {})).consent.everything).toEqual({
      allowed: [],
      denied: [added.id],
    });

    const { removed } = await harness.call<{ removed: RootView }>('roots.remove', { id: added.id });
    expect(removed).toMatchObject({ id: added.id, path: project, name: 'Renamed' });
    await waitFor(async () => (await rootsUpdates('everything')).length === 4);
    expect((await rootsUpdates('everything'))[3]).toMatch(/0 root\(s\)/);
    expect(await harness.host.dispatch('roots.remove', { id: added.id })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });

    // Limits and answers belong to the server: removing it forgets them.
    const again = await harness.call<RootView>('roots.add', { path: project });
    expect(
      (await harness.call<RootsView>('roots.setExposure', { server: 'everything', exposure: [again.id] })).exposure
        .everything,
    ).toEqual([again.id]);
    expect(await harness.host.dispatch('roots.setExposure', { server: 'everythnig', exposure: 'all' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      path: 'server',
    });
    await harness.call('servers.remove', { name: 'everything' });
    expect(await harness.host.dispatch('roots.resetConsent', { server: 'everything' })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
    });
    expect((await harness.call<RootsView>('roots.list', {})).exposure.everything).toBeUndefined();
    // The file, not just the view (which shows configured servers only), loses them.
    const savedState = async () =>
      JSON.parse(await readFile(join(berth.dir, 'state', 'roots.json'), 'utf8')) as {
        exposure: object;
        consent: object;
      };
    await waitFor(async () => Object.keys((await savedState()).exposure).length === 0);
    expect((await savedState()).consent).toEqual({});
  });

  it('withdraws the question when the window goes away, and the server sees no roots', async () => {
    const harness = await berth.start({ clientGraceMs: 50 });
    const project = join(berth.dir, 'project');
    await mkdir(project);
    await harness.call('roots.add', { path: project });
    harness.host.clientsChanged?.(1);
    const mark = harness.events.length;
    await harness.call('servers.add', { name: 'everything', config: everythingServer() });
    const asked = await nextRootConsent(mark);
    harness.host.clientsChanged?.(0);
    const withdrawn = await harness.waitForEvent(
      'pending.changed',
      ({ change }) => change.type === 'withdrawn' && change.id === asked.id,
    );
    expect(withdrawn.change).toMatchObject({ kind: 'root-consent', note: 'the Berth window was closed' });
    await waitFor(async () => (await rootsUpdates('everything')).length === 1);
    expect((await rootsUpdates('everything'))[0]).toMatch(/0 root\(s\)/);
    // Nothing was remembered: the person is asked again next time.
    expect((await harness.call<RootsView>('roots.list', {})).consent.everything).toBeUndefined();
  });

  it('browses folders, and explains that browser mode has no folder dialog', async () => {
    const harness = await berth.start();
    await mkdir(join(berth.dir, 'inner'));
    const listing = await harness.call<FolderListing>('roots.browse', { path: berth.dir });
    expect(listing.entries.map((entry) => entry.name)).toContain('inner');
    expect(await harness.host.dispatch('roots.browse', { path: join(berth.dir, 'nope') })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      path: 'path',
    });
    expect(await harness.host.dispatch('roots.browse', { path: 'relative/path' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    const picked = await harness.host.dispatch('roots.pickFolder', {});
    expect(picked).toMatchObject({ ok: false, code: 'NOT_READY', message: expect.stringContaining('folder browser') });
  });

  it('uses the shell folder dialog when there is one', async () => {
    const answers: Array<string | null> = [join(berth.dir, 'chosen'), null];
    const harness = await berth.start({ shell: 'electron', pickFolder: async () => answers.shift() ?? null });
    expect(await harness.call('roots.pickFolder', {})).toEqual({ path: join(berth.dir, 'chosen') });
    expect(await harness.call('roots.pickFolder', {})).toEqual({ path: null });
  });
});
