import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureConfig } from '../../app/servers/test-support';
import type { ConfigStatus } from '../../shared/domain/config';
import type { ConversationSummary } from '../../shared/domain/chat';
import { startHost, waitFor, type HostHarness } from './host-harness';

/**
 * A real host started on a config dir whose state files are corrupt (as a
 * crash of an older version, a disk fault or a bad hand edit leaves them):
 * each is moved aside as `<name>.corrupt-<time>` with a message for the
 * person, and never written over. config.json is the exception: it stays
 * where it is, untouched, for the fix-it editor.
 */
let dir: string;
let harness: HostHarness | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-corrupt-'));
});
afterEach(async () => {
  await harness?.host.shutdown();
  harness = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function asideCopies(file: string): Promise<string[]> {
  const names = await readdir(dirname(file));
  return names.filter((name) => name.startsWith(`${basename(file)}.corrupt-`)).map((name) => join(dirname(file), name));
}

async function warningTexts(): Promise<string> {
  const { entries } = await harness!.call<{ entries: Array<{ text: string }> }>('logs.query', { minLevel: 'warning' });
  return entries.map((entry) => entry.text).join('\n');
}

describe('start-up with corrupt state files', () => {
  it('moves each one aside, says so, and never writes over the moved copy', async () => {
    const conversationId = randomUUID();
    const corrupt: Record<string, string> = {
      'state/policies.json': '{"version":1,"policies":[{"scope":"tool"',
      'state/eras.json': '{"version":1,"servers":{"echo":{"kind":"bogus"}}}',
      'state/roots.json': '{"version":1,"roots":[',
      'settings.json': '{"defaultModel":42}',
      'secrets.json': '{"version":1,"secrets":{"anthropic.apiKey":"sk-leaky-secret',
      [`conversations/${conversationId}.json`]: `{"id":"${conversationId}","title":"cut sh`,
    };
    for (const [name, text] of Object.entries(corrupt)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    // An enabled server, so the era cache is read at start.
    const echo = fixtureConfig('modern-echo.mjs');
    await writeFile(join(dir, 'config.json'), JSON.stringify({ mcpServers: { echo: { command: echo.command, args: echo.args } } }));

    harness = await startHost(dir);
    await harness.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    for (const name of Object.keys(corrupt)) {
      await waitFor(async () => (await asideCopies(join(dir, name))).length === 1);
    }

    const warnings = await warningTexts();
    for (const [name, text] of Object.entries(corrupt)) {
      const [aside] = await asideCopies(join(dir, name));
      expect(await readFile(aside!, 'utf8'), name).toBe(text);
      // The message names where the file went, so the person can look at it or restore it.
      expect(warnings, name).toContain(aside!);
    }
    expect(warnings).not.toContain('sk-leaky');
    const conversations = await harness.call<ConversationSummary[]>('chat.list', {});
    expect(conversations.map((c) => c.id)).not.toContain(conversationId);

    // New saves write fresh files beside the moved copies, never over them.
    await harness.call('settings.setDefaultModel', { model: (await harness.call<{ models: Array<{ id: string }> }>('settings.get', {})).models[0]!.id });
    await harness.call('settings.setApiKey', { apiKey: 'sk-ant-fresh-key-0000' });
    for (const [name, text] of Object.entries(corrupt)) {
      const [aside] = await asideCopies(join(dir, name));
      expect(await readFile(aside!, 'utf8'), name).toBe(text);
    }
    expect(JSON.parse(await readFile(join(dir, 'secrets.json'), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('leaves a corrupt config.json in place, untouched, and refuses edits until it is fixed', async () => {
    const broken = '{\n  "mcpServers": {\n    "echo": { "command": "node", \n';
    await writeFile(join(dir, 'config.json'), broken);

    harness = await startHost(dir);
    const status = await harness.call<ConfigStatus>('config.status', {});
    expect(status).toMatchObject({ state: 'invalid', text: broken });
    expect(status.problems.length).toBeGreaterThan(0);
    const added = await harness.host.dispatch('servers.add', { name: 'other', config: { command: 'node', enabled: false } });
    expect(added.ok).toBe(false);
    await harness.host.shutdown();
    harness = undefined;

    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(broken);
    expect(await asideCopies(join(dir, 'config.json'))).toEqual([]);
  });
});
