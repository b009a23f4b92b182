import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileUriToPath } from './file-uri';
import { RootsConsent } from './roots-consent';
import type { RootsAsk } from './roots-consent';
import { createRootsListHandler } from './roots-handler';
import { RootsStore } from './roots-store';

let dir: string;
let closers: (() => Promise<unknown>)[];

beforeEach(async () => {
  // Real path: roots are stored as real paths, and the temp folder may sit behind a link (macOS /var).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'berth-roots-handler-')));
  closers = [];
});

afterEach(async () => {
  for (const close of closers) await close();
  await rm(dir, { recursive: true, force: true });
});

const folder = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return path;
};

async function setup(ask: RootsAsk) {
  const store = await RootsStore.open({
    stateDir: join(dir, 'state'),
    warn: (text) => expect.fail(text),
    platform: 'linux',
  });
  const consent = new RootsConsent(store);
  return { store, consent, handler: createRootsListHandler({ store, consent, ask, platform: 'linux' }) };
}

const allowAll: RootsAsk = async (_server, roots) => ({ allow: roots.map((r) => r.id) });

describe('createRootsListHandler', () => {
  it('answers valid, percent-encoded file:// URIs that lead back to the folders', async () => {
    const { store, handler } = await setup(allowAll);
    const spaced = await folder('My Projects');
    const unicode = await folder('café 日本');
    await store.add(spaced);
    await store.add(unicode, 'Notes');
    const { roots } = await handler('fs');
    expect(roots).toEqual([
      { uri: `file://${spaced.split('/').map(encodeURIComponent).join('/')}`, name: 'My Projects' },
      { uri: `file://${unicode.split('/').map(encodeURIComponent).join('/')}`, name: 'Notes' },
    ]);
    expect(roots[0]?.uri).toContain('My%20Projects');
    expect(roots[1]?.uri).toContain('caf%C3%A9%20%E6%97%A5%E6%9C%AC');
    expect(roots.map((r) => fileUriToPath(r.uri, 'linux'))).toEqual([spaced, unicode]);
  });

  it('leaves out a folder removed after it was added, and flags it', async () => {
    const { store, handler } = await setup(allowAll);
    const keep = await store.add(await folder('keep'));
    const gone = await store.add(await folder('gone'));
    expect((await handler('fs')).roots).toHaveLength(2);
    await rm(gone.path, { recursive: true });
    expect((await handler('fs')).roots.map((r) => r.name)).toEqual([keep.name]);
    expect(store.get(gone.id)).toMatchObject({ missing: true });
  });

  it('gives each server only its exposed, consented roots', async () => {
    const denyB: RootsAsk = async (_server, roots) => ({ allow: roots.filter((r) => r.name !== 'b').map((r) => r.id) });
    const { store, handler } = await setup(denyB);
    const a = await store.add(await folder('a'));
    await store.add(await folder('b'));
    const c = await store.add(await folder('c'));
    await store.setExposure('git', [c.id]);
    expect((await handler('fs')).roots.map((r) => r.name)).toEqual(['a', 'c']);
    expect((await handler('git')).roots.map((r) => r.name)).toEqual(['c']);
    expect(store.consentFor('git').allowed).not.toContain(a.id);
  });

  it('serves roots/list to a real SDK server and feeds list_changed from store changes', async () => {
    const { store, handler } = await setup(allowAll);
    await store.add(await folder('first'));
    const server = new McpServer({ name: 'roots-reader', version: '1.0.0' });
    let notified = 0;
    server.server.setNotificationHandler('notifications/roots/list_changed', () => {
      notified += 1;
    });
    const client = new Client(
      { name: 'berth-test', version: '0.0.0' },
      { capabilities: { roots: { listChanged: true } } },
    );
    client.setRequestHandler('roots/list', (_request, ctx) => handler('fs', ctx.mcpReq.signal));
    store.onChange((change) => {
      if (change.servers.includes('fs')) void client.sendRootsListChanged();
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    closers.push(
      () => client.close(),
      () => server.close(),
    );

    expect((await server.server.listRoots()).roots.map((r) => r.name)).toEqual(['first']);
    await store.add(await folder('second'));
    await expect.poll(() => notified).toBe(1);
    expect((await server.server.listRoots()).roots.map((r) => r.name)).toEqual(['first', 'second']);
  });
});
