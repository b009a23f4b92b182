import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import { fixture } from '../../app/servers/test-support';
import { serverDataFolder } from '../../app/servers/server-home';
import { hostPerTest } from './host-harness';
import type { HostHarness } from './host-harness';
import { sandboxSkipReason } from './sandbox-harness';

// Servers write into the folder they start in (Playwright MCP makes
// `.playwright-mcp/` there). The fixture writes a file into its working folder
// on start: it must land in the folder the config names, else in the server's
// own data folder inside Berth's, sandboxed or not — never in the folder Berth
// itself was started from.

const WRITTEN = 'written-by-cwd-writer.txt';
const writer = { command: process.execPath, args: [fixture('cwd-writer.mjs')] };
const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[host-server-home] sandboxed case skipped: ${skipReason}`);

const world = hostPerTest('berth-server-home-', { realPath: true });
const startedIn = process.cwd();
let berthCwd: string;

beforeEach(async () => {
  // Berth runs from a folder of its own here, so a server started in it would show (and not litter the repository).
  berthCwd = await mkdtemp(join(tmpdir(), 'berth-own-cwd-'));
  process.chdir(berthCwd);
});
afterEach(async () => {
  process.chdir(startedIn);
  await rm(berthCwd, { recursive: true, force: true });
});

async function addReady(harness: HostHarness, name: string, config: Record<string, unknown>, sandbox?: boolean) {
  await harness.call('servers.add', {
    name,
    config,
    ...(sandbox === undefined ? {} : { sandbox: { enabled: sandbox } }),
  });
  await harness.waitForEvent(
    'servers.changed',
    (state: ServerState) => state.name === name && state.status === 'ready',
    30_000,
  );
}

describe('where a local server runs', () => {
  it('in its configured cwd, else in its own data folder; never in Berth’s working folder', async () => {
    const harness = await world.start();
    await addReady(harness, 'plain', writer);
    const home = serverDataFolder(world.dir, 'plain');
    expect(existsSync(join(home, WRITTEN))).toBe(true);

    const chosen = join(world.dir, 'chosen');
    await mkdir(chosen);
    await addReady(harness, 'placed', { ...writer, cwd: chosen });
    expect(existsSync(join(chosen, WRITTEN))).toBe(true);
    expect(existsSync(serverDataFolder(world.dir, 'placed'))).toBe(false);

    expect(await readdir(berthCwd)).toEqual([]);
  });

  it.skipIf(skipReason !== undefined)('sandboxed, in its own data folder, which it may write', async () => {
    const harness = await world.start();
    await addReady(harness, 'boxed', writer, true);
    expect(existsSync(join(serverDataFolder(world.dir, 'boxed'), WRITTEN))).toBe(true);
    expect(await readdir(berthCwd)).toEqual([]);
  });
});
