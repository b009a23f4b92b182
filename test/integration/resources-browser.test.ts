import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerLifecycle } from '../../app/servers/server-lifecycle';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, fixtureConfig, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';
import { ResourceService } from '../../app/workspace/resource-service';
import { binOf, failure } from './supervisor-harness';

describe('resource browser against real servers (both eras)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let supervisor: ServerSupervisor;
  let resources: ResourceService;
  let updates: { server: string; uri: string }[];
  let listChanges: string[];
  let logs: LogCollector;
  let lifecycleErrors: string[];

  beforeEach(async () => {
    dir = await tempDir();
    updates = [];
    listChanges = [];
    logs = new LogCollector();
    // As the host wires it: the supervisor reports to the lifecycle, the service joins it.
    lifecycleErrors = [];
    const lifecycle = new ServerLifecycle({
      reportError: (what, error) => lifecycleErrors.push(`${what}: ${String(error)}`),
    });
    supervisor = new ServerSupervisor({
      logs,
      stateDir: dir.path,
      onState: (state) => lifecycle.serverChanged(state),
      clientSetup: (server, client) => lifecycle.clientSetup(server, client),
      onListChanged: (server, kind) => lifecycle.listChanged(server, kind),
    });
    resources = new ResourceService({
      servers: supervisor,
      onUpdated: (server, uri) => updates.push({ server, uri }),
      logs,
    });
    lifecycle.register(resources);
    lifecycle.register({ listChanged: { resources: (server) => listChanges.push(server) } });
  });
  afterEach(async () => {
    await supervisor.shutdown();
    await dir.cleanup();
    expect(lifecycleErrors).toEqual([]);
  });

  it('legacy era (server-everything): pages the list, fills a template, reads text and blobs, and subscribes with resources/subscribe', async () => {
    await supervisor.sync({
      everything: serverConfig({
        command: process.execPath,
        args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'],
      }),
    });
    expect(supervisor.get('everything')?.era).toBe('legacy');

    const first = await resources.list('everything', undefined);
    const uris = first.resources.map((resource) => resource.uri);
    expect(uris.some((uri) => uri.startsWith('demo://resource/static/document/'))).toBe(true);
    if (first.nextCursor !== undefined) {
      const second = await resources.list('everything', first.nextCursor);
      expect(second.resources.map((resource) => resource.uri)).not.toEqual(uris);
    }

    const { resourceTemplates } = await resources.templates('everything', undefined);
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining([
        'demo://resource/dynamic/text/{resourceId}',
        'demo://resource/dynamic/blob/{resourceId}',
      ]),
    );

    const text = await resources.read('everything', 'demo://resource/dynamic/text/7');
    expect(text.contents).toEqual([expect.objectContaining({ kind: 'text', uri: 'demo://resource/dynamic/text/7' })]);
    const blob = await resources.read('everything', 'demo://resource/dynamic/blob/7');
    const part = blob.contents[0];
    expect(part?.kind).toBe('blob');
    if (part?.kind === 'blob') expect(part.size).toBe(Buffer.from(part.blob, 'base64').length);

    const missing = await failure(resources.read('everything', 'demo://resource/nowhere/1'));
    expect(missing.code).toBe('SERVER_ERROR');
    expect(missing.message).toContain("server 'everything'");

    const uri = first.resources[0]?.uri ?? '';
    expect(await resources.subscribe('everything', uri)).toEqual({ subscribed: [uri] });
    await supervisor.callTool('everything', 'toggle-subscriber-updates', {});
    await waitUntil(() => updates.some((update) => update.uri === uri), 10_000, 'a resources/updated notification');
    expect(updates[0]).toEqual({ server: 'everything', uri });

    // A restart keeps the subscription: it is made again on the new session.
    await supervisor.restart('everything');
    expect(resources.subscribed('everything')).toEqual([uri]);
    updates.length = 0;
    await supervisor.callTool('everything', 'toggle-subscriber-updates', {});
    await waitUntil(() => updates.length > 0, 10_000, 'an update after the restart');

    expect(await resources.unsubscribe('everything', uri)).toEqual({ subscribed: [] });
    expect(logs.entries.filter((entry) => entry.text.includes('could not subscribe again'))).toEqual([]);
  }, 60_000);

  it('modern era (2026-07-28 fixture): the same calls, with updates over subscriptions/listen', async () => {
    await supervisor.sync({ modern: fixtureConfig('modern-resources.mjs') });
    expect(supervisor.get('modern')?.era).toBe('modern');

    const { resources: listed } = await resources.list('modern', undefined);
    expect(listed.map((resource) => resource.uri)).toEqual(['note://readme', 'note://settings', 'image://pixel']);
    const { resourceTemplates } = await resources.templates('modern', undefined);
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'note://{name}', name: 'named note' })]);
    expect((await resources.read('modern', 'note://groceries')).contents).toEqual([
      { kind: 'text', uri: 'note://groceries', mimeType: 'text/plain', text: 'A note called groceries' },
    ]);
    expect((await resources.read('modern', 'image://pixel')).contents[0]).toMatchObject({
      kind: 'blob',
      mimeType: 'image/png',
      size: 70,
    });

    await resources.subscribe('modern', 'note://readme');
    await supervisor.callTool('modern', 'touch', { uri: 'note://settings' });
    await supervisor.callTool('modern', 'touch', { uri: 'note://readme' });
    await waitUntil(() => updates.length > 0, 10_000, 'a resources/updated notification over subscriptions/listen');
    // Only the subscribed URI is reported.
    expect(updates).toEqual([{ server: 'modern', uri: 'note://readme' }]);
    expect((await resources.read('modern', 'note://readme')).contents[0]).toMatchObject({
      text: expect.stringContaining('Revision 2'),
    });

    await resources.unsubscribe('modern', 'note://readme');
    updates.length = 0;
    await supervisor.callTool('modern', 'touch', { uri: 'note://readme' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates).toEqual([]);
    expect(logs.entries.filter((entry) => entry.text.includes('could not subscribe again'))).toEqual([]);
  }, 60_000);

  it('refuses clearly: unknown server, server not running, no subscription support', async () => {
    expect((await failure(resources.list('ghost', undefined))).code).toBe('NOT_FOUND');
    await supervisor.sync({
      off: fixtureConfig('modern-resources.mjs', { enabled: false }),
      echo: fixtureConfig('modern-echo.mjs'),
    });
    const notReady = await failure(resources.read('off', 'note://readme'));
    expect(notReady).toMatchObject({ code: 'NOT_READY', message: expect.stringContaining("server 'off' is stopped") });
    const noSubscribe = await failure(resources.subscribe('echo', 'note://readme'));
    expect(noSubscribe.message).toBe("server 'echo' does not offer resource subscriptions");
  }, 30_000);
});
