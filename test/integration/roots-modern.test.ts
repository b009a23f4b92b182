import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToFileUri } from '../../app/roots/file-uri';
import { serverConfig } from '../../app/servers/test-support';
import { startRootsRig, type RootsRig } from './roots-harness';

const serverDist = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server', 'dist');

/**
 * A 2026-07-28 server (SDK v2, serveStdio) whose tool asks for the roots the
 * modern way: an `input_required` result with an embedded `roots/list`, then
 * a retry carrying the answer. Written to the temp dir; imports the SDK by file URL.
 */
const MODERN_ROOTS = `
import { McpServer, inputRequired, inputResponse } from ${JSON.stringify(pathToFileURL(join(serverDist, 'index.mjs')).href)};
import { serveStdio } from ${JSON.stringify(pathToFileURL(join(serverDist, 'stdio.mjs')).href)};
serveStdio(() => {
  const server = new McpServer({ name: 'modern-roots', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('where', { description: 'Which folders may I use?' }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind === 'missing') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    if (answer.kind !== 'roots') return { content: [{ type: 'text', text: 'unexpected ' + answer.kind }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify(answer.roots) }] };
  });
  return server;
});
`;

describe('roots with a 2026-07-28 server: an input_required roots/list round', () => {
  let rig: RootsRig;

  beforeEach(async () => {
    rig = await startRootsRig();
  });

  afterEach(async () => {
    await rig.close();
  });

  it('asks the person, then answers the embedded roots/list with the allowed roots only', async () => {
    const shared = join(rig.dir, 'shared');
    const secret = join(rig.dir, 'secret');
    await mkdir(shared);
    await mkdir(secret);
    const s = await rig.roots.store.add(shared, 'Shared');
    await rig.roots.store.add(secret, 'Secret');
    rig.decide = () => [s.id];
    const script = join(rig.dir, 'modern-roots.mjs');
    await writeFile(script, MODERN_ROOTS);
    await rig.supervisor.sync({ modern: serverConfig({ command: process.execPath, args: [script] }) });
    expect(rig.supervisor.get('modern')).toMatchObject({ status: 'ready', era: 'modern' });

    const { text, isError } = await rig.callText('modern', 'where');
    expect(isError).toBe(false);
    expect(JSON.parse(text)).toEqual([{ uri: pathToFileUri(shared, process.platform), name: 'Shared' }]);
    expect(rig.asked).toHaveLength(1);
    expect(rig.asked[0]?.payload.roots.map((root) => root.name)).toEqual(['Shared', 'Secret']);

    // No notice in this era (it has none): the next round simply gets the current list, without asking again.
    await rig.roots.store.rename(s.id, 'Shared (renamed)');
    const again = await rig.callText('modern', 'where');
    expect(JSON.parse(again.text)).toEqual([
      { uri: pathToFileUri(shared, process.platform), name: 'Shared (renamed)' },
    ]);
    expect(rig.listChangedSent('modern')).toBe(0);
    expect(rig.logs.for('modern', 'host').filter((entry) => entry.level === 'warning')).toEqual([]);
    expect(rig.asked).toHaveLength(1);
  });
});
