import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureConfig } from '../../app/servers/test-support';
import type { ConfigStatus } from '../../shared/domain/config';
import type { ConversationSummary } from '../../shared/domain/chat';
import { hostPerTest, waitFor } from './host-harness';

/**
 * A real host started on a config dir whose state files are corrupt (as a
 * crash of an older version, a disk fault or a bad hand edit leaves them):
 * each is moved aside as `<name>.corrupt-<time>` with a message for the
 * person, and never written over. config.json is the exception: it stays
 * where it is, untouched, for the fix-it editor.
 */
const berth = hostPerTest('berth-corrupt-');

async function asideCopies(file: string): Promise<string[]> {
  const names = await readdir(dirname(file));
  return names.filter((name) => name.startsWith(`${basename(file)}.corrupt-`)).map((name) => join(dirname(file), name));
}

async function warningTexts(): Promise<string> {
  const { entries } = await berth.harness.call<{ entries: Array<{ text: string }> }>('logs.query', {
    minLevel: 'warning',
  });
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
      await mkdir(dirname(join(berth.dir, name)), { recursive: true });
      await writeFile(join(berth.dir, name), text);
    }
    // An enabled server, so the era cache is read at start.
    const echo = fixtureConfig('modern-echo.mjs');
    await writeFile(
      join(berth.dir, 'config.json'),
      JSON.stringify({ mcpServers: { echo: { command: echo.command, args: echo.args } } }),
    );

    const harness = await berth.start();
    await harness.waitForEvent('servers.changed', (state) => state.name === 'echo' && state.status === 'ready');
    for (const name of Object.keys(corrupt)) {
      await waitFor(async () => (await asideCopies(join(berth.dir, name))).length === 1);
    }

    const warnings = await warningTexts();
    for (const [name, text] of Object.entries(corrupt)) {
      const [aside] = await asideCopies(join(berth.dir, name));
      expect(await readFile(aside!, 'utf8'), name).toBe(text);
      // The message names where the file went, so the person can look at it or restore it.
      expect(warnings, name).toContain(aside!);
    }
    expect(warnings).not.toContain('sk-leaky');
    const conversations = await harness.call<ConversationSummary[]>('chat.list', {});
    expect(conversations.map((c) => c.id)).not.toContain(conversationId);

    // New saves write fresh files beside the moved copies, never over them.
    await harness.call('settings.setDefaultModel', {
      model: (await harness.call<{ models: Array<{ id: string }> }>('settings.get', {})).models[0]!.id,
    });
    await harness.call('settings.setApiKey', { apiKey: 'sk-ant-fresh-key-0000' });
    for (const [name, text] of Object.entries(corrupt)) {
      const [aside] = await asideCopies(join(berth.dir, name));
      expect(await readFile(aside!, 'utf8'), name).toBe(text);
    }
    expect(JSON.parse(await readFile(join(berth.dir, 'secrets.json'), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('leaves a corrupt config.json in place, untouched, and refuses edits until it is fixed', async () => {
    const broken = '{\n  "mcpServers": {\n    "echo": { "command": "node", \n';
    await writeFile(join(berth.dir, 'config.json'), broken);

    const harness = await berth.start();
    const status = await harness.call<ConfigStatus>('config.status', {});
    expect(status).toMatchObject({ state: 'invalid', text: broken });
    expect(status.problems.length).toBeGreaterThan(0);
    const added = await harness.host.dispatch('servers.add', {
      name: 'other',
      config: { command: 'node', enabled: false },
    });
    expect(added.ok).toBe(false);
    await harness.host.shutdown();

    expect(await readFile(join(berth.dir, 'config.json'), 'utf8')).toBe(broken);
    expect(await asideCopies(join(berth.dir, 'config.json'))).toEqual([]);
  });
});
