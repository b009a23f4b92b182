import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { fixture } from '../../app/servers/test-support';
import { GET_TIME_URI, vanillaConfig } from './apps-support';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';

const UI_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

async function addServer(harness: HostHarness, name: string, config: Record<string, unknown>): Promise<ServerState> {
  await harness.call('servers.add', { name, config });
  return harness.waitForEvent(
    'servers.changed',
    (state) =>
      state.name === name && (state.status === 'ready' || state.status === 'error' || state.status === 'crashed'),
  );
}

async function recorded(
  file: string,
): Promise<Array<{ method: string; capabilities: { extensions?: Record<string, unknown> } }>> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { method: string; capabilities: { extensions?: Record<string, unknown> } });
}

describe('MCP Apps: Berth declares the UI extension', () => {
  const world = hostPerTest('berth-apps-caps-');

  it('in the 2025 era, in initialize', async () => {
    const harness = await world.start();
    const log = join(world.dir, 'caps.log');
    const state = await addServer(harness, 'legacy', {
      command: process.execPath,
      args: [fixture('app-capabilities.mjs')],
      env: { BERTH_FIXTURE_CAPS_LOG: log, BERTH_FIXTURE_ERA: 'legacy' },
    });
    expect(state).toMatchObject({ status: 'ready', era: 'legacy' });
    const requests = await recorded(log);
    // The server/discover probe (unknown to this server) said it too.
    expect(requests.map((request) => request.method)).toEqual(['server/discover', 'initialize']);
    for (const request of requests) expect(request.capabilities.extensions).toMatchObject(UI_EXTENSION);
    expect(await harness.call('apps.resource', { server: 'legacy', uri: 'ui://caps/app.html' })).toMatchObject({
      html: '<!doctype html><p>noon</p>',
    });
    // What the server says about its tools' apps reaches the state.
    expect(serverTools(state).map((tool) => [tool.name, tool.ui])).toEqual([
      ['show-time', { resourceUri: 'ui://caps/app.html' }],
      ['poke', { visibility: ['app'] }],
      ['whisper', { visibility: ['model'] }],
    ]);
  });

  it('in the 2026-07-28 era, on every request', async () => {
    const harness = await world.start();
    const log = join(world.dir, 'caps.log');
    const state = await addServer(harness, 'modern', {
      command: process.execPath,
      args: [fixture('app-capabilities.mjs')],
      env: { BERTH_FIXTURE_CAPS_LOG: log },
    });
    expect(state).toMatchObject({ status: 'ready', era: 'modern' });
    const requests = await recorded(log);
    expect(requests.map((request) => request.method)).toContain('tools/list');
    for (const request of requests) expect(request.capabilities.extensions).toMatchObject(UI_EXTENSION);
    expect(serverTools(state).find((tool) => tool.name === 'show-time')?.ui).toEqual({
      resourceUri: 'ui://caps/app.html',
    });
    // The UI resource is read in this era too.
    expect(await harness.call('apps.resource', { server: 'modern', uri: 'ui://caps/app.html' })).toMatchObject({
      html: '<!doctype html><p>noon</p>',
      csp: {},
      permissions: [],
    });
  });

  it('and server-basic-vanillajs lists get-time with its app', async () => {
    const harness = await world.start();
    const state = await addServer(harness, 'basic', vanillaConfig);
    expect(state.status).toBe('ready');
    expect(serverTools(state).find((tool) => tool.name === 'get-time')?.ui).toEqual({ resourceUri: GET_TIME_URI });
  });

  it('refuses a junk UI resource in words, and the server and the host go on', async () => {
    const harness = await world.start();
    await addServer(harness, 'junk', {
      command: process.execPath,
      args: [fixture('app-capabilities.mjs')],
      env: { BERTH_FIXTURE_UI_JUNK: '1' },
    });
    const refused = await harness.host.dispatch('apps.resource', { server: 'junk', uri: 'ui://caps/app.html' });
    expect(refused).toEqual({
      ok: false,
      code: 'SERVER_ERROR',
      message:
        'server \'junk\' sent an app UI (ui://caps/app.html) that Berth cannot show: its MIME type is "text/html", not text/html;profile=mcp-app',
      // The same refusal as a code, for the renderer to word in the person's language.
      hostMessage: {
        code: 'apps-errors.ui-unusable',
        params: {
          server: 'junk',
          uri: 'ui://caps/app.html',
          reason: 'its MIME type is "text/html", not text/html;profile=mcp-app',
        },
        cause: {
          code: 'apps-errors.ui-wrong-mime',
          params: { value: '"text/html"', expected: 'text/html;profile=mcp-app' },
        },
      },
    });
    expect(await harness.call('servers.list', {})).toEqual([
      expect.objectContaining({ name: 'junk', status: 'ready' }),
    ]);
    expect(await harness.call('apps.list', { server: 'junk' })).toEqual([
      expect.objectContaining({ tool: 'show-time' }),
    ]);
  });
});
