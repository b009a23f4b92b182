import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RootView } from '../../shared/domain/roots';
import { serverIdentity } from '../consent/approval-fingerprint';
import { RootsConsent } from './roots-consent';
import type { RootsAsk } from './roots-consent';
import { RootsStore } from './roots-store';

const FS_V1 = serverIdentity({ command: 'npx', args: ['server-filesystem'] });
const FS_V2 = serverIdentity({ command: 'npx', args: ['some-other-server'] });

let dir: string;
let ids: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-roots-identity-'));
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

async function withRoot(store: RootsStore, name: string): Promise<RootView> {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return store.add(path, name);
}

function asker(allow: boolean) {
  const asked: string[][] = [];
  const ask: RootsAsk = async (_server, roots) => {
    asked.push(roots.map((r) => r.id));
    return { allow: allow ? roots.map((r) => r.id) : [] };
  };
  return { ask, asked };
}

describe('RootsConsent: answers belong to the server identity they were given to', () => {
  it('a different command under the same name is asked again, and does not see what the old one was allowed', async () => {
    const store = await openStore();
    await withRoot(store, 'projects');
    let identity = FS_V1;
    const consent = new RootsConsent(store, () => identity);
    const first = asker(true);
    expect((await consent.visibleRoots('fs', first.ask)).map((r) => r.name)).toEqual(['projects']);

    identity = FS_V2;
    expect(consent.answersFor('fs')).toEqual({ allowed: [], denied: [] });
    const second = asker(false);
    expect(await consent.visibleRoots('fs', second.ask)).toEqual([]);
    expect(second.asked).toEqual([['r1']]);
    // The new answer replaced the old one: going back to the old command asks again too.
    identity = FS_V1;
    const third = asker(true);
    await consent.visibleRoots('fs', third.ask);
    expect(third.asked).toEqual([['r1']]);
  });

  it('answers stored before identities were recorded are asked again', async () => {
    const stateDir = join(dir, 'state');
    await mkdir(stateDir, { recursive: true });
    await writeFile(
      join(stateDir, 'roots.json'),
      JSON.stringify({
        version: 1,
        roots: [{ id: 'old', path: dir, name: 'home', addedAt: 1 }],
        exposure: {},
        consent: { fs: { allowed: ['old'], denied: [] } },
      }),
    );
    const store = await openStore();
    const consent = new RootsConsent(store, () => FS_V1);
    expect(consent.answersFor('fs')).toEqual({ allowed: [], denied: [] });
    const { ask, asked } = asker(true);
    expect((await consent.visibleRoots('fs', ask)).map((r) => r.id)).toEqual(['old']);
    expect(asked).toEqual([['old']]);
    const saved = JSON.parse(await readFile(join(stateDir, 'roots.json'), 'utf8')) as {
      consent: Record<string, unknown>;
    };
    expect(saved.consent.fs).toEqual({ allowed: ['old'], denied: [], identity: FS_V1 });
  });

  it('rebind: the person kept approvals for a new command, so its answers carry over without asking', async () => {
    const store = await openStore();
    await withRoot(store, 'projects');
    let identity = FS_V1;
    const consent = new RootsConsent(store, () => identity);
    await consent.visibleRoots('fs', asker(true).ask);
    await consent.rebind('fs', FS_V1, FS_V2);
    identity = FS_V2;
    const { ask, asked } = asker(false);
    expect((await consent.visibleRoots('fs', ask)).map((r) => r.name)).toEqual(['projects']);
    expect(asked).toEqual([]);
    // A rebind from an identity the answers were not given to changes nothing.
    await consent.rebind('fs', FS_V1, 'sha256:elsewhere');
    expect(consent.answersFor('fs').allowed).toEqual(['r1']);
  });

  it('removing a root or resetting answers keeps the identity they belong to', async () => {
    const store = await openStore();
    await withRoot(store, 'a');
    const b = await withRoot(store, 'b');
    const consent = new RootsConsent(store, () => FS_V1);
    await consent.visibleRoots('fs', asker(true).ask);
    await store.remove(b.id);
    expect(consent.answersFor('fs')).toEqual({ allowed: ['r1'], denied: [] });
    await store.restore(b.id);
    expect(consent.answersFor('fs')).toEqual({ allowed: ['r1', 'r2'], denied: [] });
    await consent.resetConsent('fs', ['r2']);
    expect(consent.answersFor('fs')).toEqual({ allowed: ['r1'], denied: [] });
  });
});
