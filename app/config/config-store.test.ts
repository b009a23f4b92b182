import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigStatus } from '../../shared/domain/config';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../../shared/domain/server';
import { ConfigStore } from './config-store';

const cfg = (input: ServerConfigInput): ServerConfig => ServerConfigSchema.parse(input);
const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let dir: string;
let file: string;
const stores: ConfigStore[] = [];

function open(onChange?: (status: ConfigStatus) => void): ConfigStore {
  const store = new ConfigStore({ filePath: file, onChange, watchDebounceMs: 50 });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-config-'));
  file = join(dir, 'config.json');
});

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ConfigStore reading', () => {
  it('reports a missing file and creates it pretty-printed, 0600, on the first write', async () => {
    const store = open();
    expect(await store.load()).toEqual({ path: file, state: 'missing', problems: [] });
    expect(store.servers()).toEqual({});
    await store.addServer('memory', cfg({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }));
    expect(await readFile(file, 'utf8')).toBe(
      lines(
        '{',
        '  "mcpServers": {',
        '    "memory": {',
        '      "command": "npx",',
        '      "args": [',
        '        "-y",',
        '        "@modelcontextprotocol/server-memory"',
        '      ]',
        '    }',
        '  }',
        '}',
      ),
    );
    expect(store.status().state).toBe('ok');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reports a syntax error with line and column and loads no server', async () => {
    const text = lines('{', '  "mcpServers": {', '    "a": { "command": "x" },', '  }', '}');
    await writeFile(file, text);
    const store = open();
    const status = await store.load();
    expect(status).toMatchObject({ state: 'invalid', text, problems: [{ line: 3, column: 28 }] });
    expect(store.servers()).toEqual({});
  });

  it('rejects comments', async () => {
    await writeFile(
      file,
      lines('{', '  "mcpServers": {', '    // off for now', '    "a": { "command": "x" }', '  }', '}'),
    );
    const status = await open().load();
    expect(status.state).toBe('invalid');
    expect(status.problems[0]).toMatchObject({
      line: 3,
      column: 5,
      message: expect.stringMatching(/Comments are not allowed/),
    });
  });

  it('loads the valid entries next to a broken one', async () => {
    const text = '{"mcpServers": {"ok": {"command": "node", "args": ["s.js"]}, "broken": {"args": 3}}}';
    await writeFile(file, text);
    const store = open();
    const status = await store.load();
    expect(status.state).toBe('invalid');
    expect(status.text).toBe(text);
    expect(status.problems.map((p) => p.field)).toEqual(['mcpServers.broken.command', 'mcpServers.broken.args']);
    expect(Object.keys(store.servers())).toEqual(['ok']);
    expect(store.rawServer('ok')).toMatchObject({ command: 'node', args: ['s.js'], enabled: true });
    expect(store.rawServer('broken')).toBeUndefined();
  });

  it('turns IO errors into an invalid status', async () => {
    await mkdir(file);
    const status = await open().load();
    expect(status.state).toBe('invalid');
    expect(status.problems[0]?.message).toMatch(/Could not read .*config\.json/);
    expect(status.text).toBeUndefined();
  });
});

describe('ConfigStore writes on an invalid file', () => {
  it.each([
    ['a syntax error', '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n'],
    ['a top level that is not an object', '[{"command": "x"}]'],
    ['mcpServers that is not an object', '{"mcpServers": ["a"]}'],
  ])('refuses every write while the file has %s, leaving it byte-identical', async (_label, text) => {
    await writeFile(file, text);
    const store = open();
    await store.load();
    const config = cfg({ command: 'node' });
    await expect(store.addServer('b', config)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(store.setServer('a', config)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(store.removeServer('a')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/line \d+, column \d+/),
    });
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it("codes the refusal with the first problem's place and its own code nested", async () => {
    await writeFile(file, '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const store = open();
    await store.load();
    await expect(store.removeServer('a')).rejects.toMatchObject({
      message: `The config file ${file} has errors (line 3, column 26: Trailing comma before '}': JSON does not allow it, remove the ','). Berth will not overwrite it: fix it in the editor first.`,
      hostMessage: {
        code: 'config-errors.file-has-errors-at',
        params: {
          file,
          line: 3,
          column: 26,
          more: 0,
        },
        cause: { code: 'config-problems.trailing-comma', params: { found: '}' } },
      },
    });
  });

  it('saveText refuses broken text and writes fixed text', async () => {
    const broken = '{"mcpServers": {"a": {"command": "x",}}}';
    await writeFile(file, broken);
    const store = open();
    await store.load();

    const stillBroken = await store.saveText('{"mcpServers": {"a": {"command": "x"}, }}');
    expect(stillBroken).toMatchObject({
      state: 'invalid',
      problems: [{ line: 1, column: 38 }],
      text: '{"mcpServers": {"a": {"command": "x"}, }}',
    });
    const schemaBroken = await store.saveText('{"mcpServers": {"a": {"command": ""}}}');
    expect(schemaBroken).toMatchObject({ state: 'invalid', problems: [{ field: 'mcpServers.a.command' }] });
    expect(await readFile(file, 'utf8')).toBe(broken);
    expect(store.status().text).toBe(broken);

    const fixed = '{ "mcpServers": { "a": { "command": "x" } } }';
    expect(await store.saveText(fixed)).toEqual({ path: file, state: 'ok', problems: [] });
    expect(await readFile(file, 'utf8')).toBe(fixed);
    expect(Object.keys(store.servers())).toEqual(['a']);
    await store.setServer('a', cfg({ command: 'y' }));
    expect(store.rawServer('a')?.command).toBe('y');
  });
});

describe('ConfigStore surgical edits', () => {
  const original = [
    '{',
    '    "globalShortcut": "Ctrl+Space",',
    '    "mcpServers": {',
    '        "fs": {"command": "npx", "args": ["-y", "server-filesystem"], "x-note": "mine"},',
    '        "broken": { "args": "not an array" },',
    '        "memory": {',
    '            "command": "npx",',
    '            "args": ["-y", "server-memory"],',
    '            "env": {}',
    '        }',
    '    },',
    '    "theme": {"dark": true}',
    '}',
    '',
  ].join('\n');

  beforeEach(async () => {
    await writeFile(file, original);
  });

  it('changes only the fields that differ and keeps formatting, unknown keys and the broken entry', async () => {
    const store = open();
    await store.load();
    await store.setServer('fs', cfg({ command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] }));
    await store.setServer('memory', cfg({ command: 'npx', args: ['-y', 'server-memory'], enabled: false }));
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '    "globalShortcut": "Ctrl+Space",',
        '    "mcpServers": {',
        '        "fs": {"command": "npx", "args": ["-y", "server-filesystem", "/tmp"], "x-note": "mine"},',
        '        "broken": { "args": "not an array" },',
        '        "memory": {',
        '            "command": "npx",',
        '            "args": ["-y", "server-memory"],',
        '            "env": {},',
        '            "enabled": false',
        '        }',
        '    },',
        '    "theme": {"dark": true}',
        '}',
        '',
      ].join('\n'),
    );
    expect(store.rawServer('memory')?.enabled).toBe(false);
    expect(store.status().problems.map((p) => p.field)).toEqual([
      'mcpServers.broken.command',
      'mcpServers.broken.args',
    ]);
  });

  it('writes nothing new when a replace means the same config', async () => {
    const store = open();
    await store.load();
    const memory = store.rawServer('memory');
    if (memory === undefined) throw new Error('memory should load');
    await store.setServer('memory', memory);
    expect(await readFile(file, 'utf8')).toBe(original);
  });

  it('adds a new entry in the file’s own indentation after the others', async () => {
    const store = open();
    await store.load();
    await store.addServer('everything', cfg({ command: 'node', env: { TOKEN: 'x' }, secretEnv: ['TOKEN'] }));
    const text = await readFile(file, 'utf8');
    expect(text).toContain(
      [
        '        },',
        '        "everything": {',
        '            "command": "node",',
        '            "args": [],',
        '            "env": {',
        '                "TOKEN": "x"',
        '            },',
        '            "secretEnv": [',
        '                "TOKEN"',
        '            ]',
        '        }',
        '    },',
      ].join('\n'),
    );
    expect(text).toContain('        "broken": { "args": "not an array" },\n');
    expect(Object.keys(store.servers())).toEqual(['fs', 'memory', 'everything']);
  });

  it('renames in place, keeping the entry’s position and unknown keys', async () => {
    const store = open();
    await store.load();
    await store.setServer('files', cfg({ command: 'npx', args: ['-y', 'server-filesystem'] }), { previousName: 'fs' });
    expect(await readFile(file, 'utf8')).toBe(original.replace('"fs": {', '"files": {'));
    expect(Object.keys(store.servers())).toEqual(['files', 'memory']);
  });

  it('fixes a broken entry through a rename or a replace', async () => {
    const store = open();
    await store.load();
    await store.setServer('repaired', cfg({ command: 'node', args: ['r.js'] }), { previousName: 'broken' });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('        "repaired": { "args": ["r.js"], "command": "node" },\n');
    expect(store.status()).toEqual({ path: file, state: 'ok', problems: [] });
    expect(Object.keys(store.servers())).toEqual(['fs', 'repaired', 'memory']);
  });

  it('removes one entry and nothing else', async () => {
    const store = open();
    await store.load();
    await store.removeServer('memory');
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '    "globalShortcut": "Ctrl+Space",',
        '    "mcpServers": {',
        '        "fs": {"command": "npx", "args": ["-y", "server-filesystem"], "x-note": "mine"},',
        '        "broken": { "args": "not an array" }',
        '    },',
        '    "theme": {"dark": true}',
        '}',
        '',
      ].join('\n'),
    );
    await store.removeServer('broken');
    expect(store.status().state).toBe('ok');
  });

  it('adds several entries in one write, or none when one name is taken', async () => {
    const store = open();
    await store.load();
    await expect(
      store.addServers([
        { name: 'a', config: cfg({ command: 'x' }) },
        { name: 'broken', config: cfg({ command: 'y' }) },
      ]),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(
      store.addServers([
        { name: 'b', config: cfg({ command: 'x' }) },
        { name: 'b', config: cfg({ command: 'y' }) },
      ]),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(file, 'utf8')).toBe(original);
    await store.addServers([
      { name: 'a', config: cfg({ command: 'x' }) },
      { name: 'b', config: cfg({ command: 'y', args: ['1'] }) },
    ]);
    expect(Object.keys(store.servers())).toEqual(['fs', 'memory', 'a', 'b']);
    expect(store.names()).toEqual(['fs', 'broken', 'memory', 'a', 'b']);
    expect(await readFile(file, 'utf8')).toContain('"x-note": "mine"');
  });

  it('answers CONFLICT, NOT_FOUND and INVALID_INPUT without touching the file', async () => {
    const store = open();
    await store.load();
    const config = cfg({ command: 'node' });
    await expect(store.addServer('fs', config)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(store.addServer('broken', config)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(store.setServer('memory', config, { previousName: 'fs' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(store.setServer('new', config, { previousName: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.removeServer('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.addServer('-bad', config)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: 'name',
      message: 'Use letters, digits, spaces, dot, dash or underscore, starting with a letter or digit',
      hostMessage: { code: 'config-problems.name-rule', params: { rule: 'characters' } },
    });
    await expect(store.addServer('ok', { ...config, command: ' ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: 'config.command',
      hostMessage: { code: 'bridge-errors.schema-words', params: { field: 'command' } },
    });
    // zod's own words stay the message; the person reads the problem by its kind, the field a fact.
    await expect(store.addServer('ok', { ...config, args: 'x' as unknown as string[] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      path: 'config.args',
      message: expect.stringMatching(/^Invalid input/),
      hostMessage: { code: 'bridge-errors.not-valid', params: { field: 'args' } },
    });
    // Names are case-sensitive, as in Claude Desktop.
    await store.addServer('FS', config);
    expect((await readFile(file, 'utf8')).replace(/\n {8}"FS": \{[^}]*\}/, '').replace('},\n    },', '}\n    },')).toBe(
      original,
    );
  });

  it('picks up an external edit made since the last load before writing', async () => {
    const store = open();
    await store.load();
    await writeFile(file, '{"mcpServers": {"other": {"command": "x"}}}');
    await store.addServer('mine', cfg({ command: 'y' }));
    expect(Object.keys(store.servers())).toEqual(['other', 'mine']);
  });
});

describe('ConfigStore concurrency and watching', () => {
  it('serializes concurrent writes so every one lands', async () => {
    const store = open();
    await store.load();
    const names = Array.from({ length: 25 }, (_, i) => `server-${i}`);
    await Promise.all(names.map((name, i) => store.addServer(name, cfg({ command: 'node', args: [String(i)] }))));
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { args: string[] }> };
    expect(Object.keys(onDisk.mcpServers).sort()).toEqual([...names].sort());
    expect(onDisk.mcpServers['server-7']?.args).toEqual(['7']);
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('reloads on external edits and ignores its own writes', async () => {
    const changes: ConfigStatus[] = [];
    const store = open((status) => changes.push(status));
    await store.load();
    store.watch();
    await store.addServer('mine', cfg({ command: 'node' }));
    // Give the watcher time to see our own write; it must not report it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toEqual([]);

    await writeFile(file, '{"mcpServers": {"theirs": {"command": "x"}}}');
    // writeFile truncates first, so an empty file may be seen on the way: wait for the final content.
    await waitFor(
      () => (changes.some((s) => s.state === 'ok') && 'theirs' in store.servers() ? true : undefined),
      'the external edit',
    );
    expect(Object.keys(store.servers())).toEqual(['theirs']);

    await writeFile(file, '{"mcpServers": {');
    const invalid = await waitFor(() => changes.find((s) => s.state === 'invalid'), 'the broken edit');
    expect(invalid.text).toBe('{"mcpServers": {');
    expect(store.servers()).toEqual({});

    await rm(file);
    await waitFor(() => changes.find((s) => s.state === 'missing'), 'the deletion');
  });

  it('reports a watcher that cannot start instead of throwing', async () => {
    await writeFile(join(dir, 'blocker'), 'file, not a dir');
    const errors: Error[] = [];
    const store = new ConfigStore({
      filePath: join(dir, 'blocker', 'config.json'),
      onWatchError: (error) => errors.push(error),
    });
    stores.push(store);
    expect(() => store.watch()).not.toThrow();
    expect(errors).toHaveLength(1);
  });

  it('refuses writes with IO_ERROR while the file cannot be read', async () => {
    await mkdir(file);
    const store = open();
    await store.load();
    await expect(store.addServer('a', cfg({ command: 'x' }))).rejects.toMatchObject({ code: 'IO_ERROR' });
  });

  it('hands out copies of its configs', async () => {
    await writeFile(file, '{"mcpServers": {"a": {"command": "x", "args": ["1"]}}}');
    const store = open();
    await store.load();
    store.rawServer('a')?.args.push('mutated');
    const all = store.servers();
    all.a?.args.push('mutated');
    expect(store.rawServer('a')?.args).toEqual(['1']);
  });

  it('writes through a symlinked config file instead of replacing the link', async () => {
    if (process.platform === 'win32') return;
    const real = join(dir, 'dotfiles-config.json');
    await writeFile(real, '{"mcpServers": {}}');
    await symlink(real, file);
    const store = open();
    await store.load();
    await store.addServer('a', cfg({ command: 'node' }));
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual({ mcpServers: { a: { command: 'node', args: [] } } });
    expect((await import('node:fs/promises').then((fs) => fs.lstat(file))).isSymbolicLink()).toBe(true);
  });
});
