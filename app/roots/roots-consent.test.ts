import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PendingWithdrawal } from '../../shared/domain/pending';
import type { RootConsentResponse, RootsChange, RootView } from '../../shared/domain/roots';
import { RootsConsent } from './roots-consent';
import type { RootsAsk } from './roots-consent';
import { RootsStore } from './roots-store';

let dir: string;
let ids: number;

beforeEach(async () => {
  // Real path: roots are stored as real paths, and the temp folder may sit behind a link (macOS /var).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'berth-roots-consent-')));
  ids = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const openStore = () =>
  RootsStore.open({
    stateDir: join(dir, 'state'),
    warn: (text) => expect.fail(text),
    platform: 'linux',
    newId: () => `r${++ids}`,
  });

const folder = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return path;
};

/** An `ask` that records each question and answers with `answer(roots)`. */
function asker(answer: (roots: RootView[]) => RootConsentResponse | PendingWithdrawal) {
  const asked: { server: string; ids: string[] }[] = [];
  const ask: RootsAsk = async (server, roots) => {
    asked.push({ server, ids: roots.map((r) => r.id) });
    return answer(roots);
  };
  return { ask, asked };
}

const names = (roots: RootView[]) => roots.map((r) => r.name);

describe('RootsConsent.visibleRoots', () => {
  it('asks once about unseen roots, shows the allowed ones and keeps the denied ones hidden', async () => {
    const store = await openStore();
    await store.add(await folder('a'), 'A');
    await store.add(await folder('b'), 'B');
    const consent = new RootsConsent(store);
    const { ask, asked } = asker(() => ({ allow: ['r1', 'not-asked'] }));
    expect(names(await consent.visibleRoots('fs', ask))).toEqual(['A']);
    expect(names(await consent.visibleRoots('fs', ask))).toEqual(['A']);
    expect(asked).toEqual([{ server: 'fs', ids: ['r1', 'r2'] }]);
    expect(store.consentFor('fs')).toEqual({ allowed: ['r1'], denied: ['r2'] });
  });

  it('remembers answers across a restart and asks only about roots added later', async () => {
    const first = await openStore();
    await first.add(await folder('a'), 'A');
    await new RootsConsent(first).visibleRoots('fs', asker(() => ({ allow: ['r1'] })).ask);
    const store = await openStore();
    await store.add(await folder('c'), 'C');
    const { ask, asked } = asker((roots) => ({ allow: roots.map((r) => r.id) }));
    expect(names(await new RootsConsent(store).visibleRoots('fs', ask))).toEqual(['A', 'C']);
    expect(asked).toEqual([{ server: 'fs', ids: ['r2'] }]);
  });

  it('remembers nothing when the question is withdrawn, and asks again next time', async () => {
    const store = await openStore();
    await store.add(await folder('a'), 'A');
    const consent = new RootsConsent(store);
    const withdrawn = asker(() => ({ withdrawn: true, note: 'the window closed' }));
    expect(await consent.visibleRoots('fs', withdrawn.ask)).toEqual([]);
    expect(store.consentFor('fs')).toEqual({ allowed: [], denied: [] });
    const { ask, asked } = asker(() => ({ allow: ['r1'] }));
    expect(names(await consent.visibleRoots('fs', ask))).toEqual(['A']);
    expect(asked).toHaveLength(1);
  });

  it('asks again after resetConsent, and tells listeners that server changed', async () => {
    const store = await openStore();
    await store.add(await folder('a'), 'A');
    const consent = new RootsConsent(store);
    await consent.visibleRoots('fs', asker(() => ({ allow: [] })).ask);
    const changes: RootsChange[] = [];
    store.onChange((change) => changes.push(change));
    await consent.resetConsent('fs');
    expect(changes.at(-1)?.servers).toEqual(['fs']);
    const { ask, asked } = asker(() => ({ allow: ['r1'] }));
    expect(names(await consent.visibleRoots('fs', ask))).toEqual(['A']);
    expect(asked).toEqual([{ server: 'fs', ids: ['r1'] }]);
  });

  it('never asks about roots the server is not exposed to, or whose folder is missing', async () => {
    const store = await openStore();
    const a = await store.add(await folder('a'), 'A');
    await store.add(await folder('b'), 'B');
    const gone = await store.add(await folder('gone'), 'Gone');
    await rm(gone.path, { recursive: true });
    await store.check();
    await store.setExposure('fs', [a.id, gone.id]);
    const { ask, asked } = asker((roots) => ({ allow: roots.map((r) => r.id) }));
    expect(names(await new RootsConsent(store).visibleRoots('fs', ask))).toEqual(['A']);
    expect(asked).toEqual([{ server: 'fs', ids: [a.id] }]);
  });

  it('asks once when one server lists its roots twice at the same time, and separately per server', async () => {
    const store = await openStore();
    await store.add(await folder('a'), 'A');
    const consent = new RootsConsent(store);
    let release: (() => void) | undefined;
    const asked: string[] = [];
    const ask: RootsAsk = (server, roots) => {
      asked.push(server);
      return new Promise((resolve) => {
        release = () => resolve({ allow: roots.map((r) => r.id) });
      });
    };
    const one = consent.visibleRoots('fs', ask);
    const two = consent.visibleRoots('fs', ask);
    await expect.poll(() => asked).toEqual(['fs']);
    release?.();
    expect(names(await one)).toEqual(['A']);
    expect(names(await two)).toEqual(['A']);
    expect(asked).toEqual(['fs']);
    const other = consent.visibleRoots('git', ask);
    await expect.poll(() => asked).toEqual(['fs', 'git']);
    release?.();
    expect(names(await other)).toEqual(['A']);
  });

  it('passes a failing ask on, and the next call asks again', async () => {
    const store = await openStore();
    await store.add(await folder('a'), 'A');
    const consent = new RootsConsent(store);
    await expect(consent.visibleRoots('fs', () => Promise.reject(new Error('queue full')))).rejects.toThrow(
      'queue full',
    );
    expect(names(await consent.visibleRoots('fs', asker(() => ({ allow: ['r1'] })).ask))).toEqual(['A']);
  });
});
