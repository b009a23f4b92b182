import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore } from './config-store';

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;

/**
 * A hand-written file (strict JSON, Claude Desktop's format: no comments) with
 * a top-level key of another app, an unknown key, tab-free odd spacing and a
 * one-line entry: Berth must leave all of it alone.
 */
const HAND_WRITTEN = lines(
  '{',
  '  "globalShortcut": "Ctrl+Space",',
  '  "mcpServers": {',
  '    "everything": {',
  '      "command":   "npx",',
  '      "args": ["-y", "@modelcontextprotocol/server-everything"],',
  '      "x-note": "keep me"',
  '    },',
  '    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "logLevel": "info"}',
  '  }',
  '}',
);

let dir: string;
let file: string;
let store: ConfigStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-config-level-'));
  file = join(dir, 'config.json');
  store = new ConfigStore({ filePath: file });
});

afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ConfigStore.setServerLogLevel', () => {
  it('adds, changes and removes only the logLevel text, keeping every other byte', async () => {
    await writeFile(file, HAND_WRITTEN);
    await store.load();

    await store.setServerLogLevel('everything', 'debug');
    const withLevel = HAND_WRITTEN.replace('"x-note": "keep me"', '"x-note": "keep me",\n      "logLevel": "debug"');
    expect(await readFile(file, 'utf8')).toBe(withLevel);
    expect(store.servers().everything?.logLevel).toBe('debug');

    await store.setServerLogLevel('memory', 'warning');
    const changed = withLevel.replace('"logLevel": "info"', '"logLevel": "warning"');
    expect(await readFile(file, 'utf8')).toBe(changed);

    await store.setServerLogLevel('everything', undefined);
    await store.setServerLogLevel('memory', 'info');
    // Back to the level it had and the default it had: byte-identical to what the person wrote.
    expect(await readFile(file, 'utf8')).toBe(HAND_WRITTEN);
    expect(store.servers().everything?.logLevel).toBeUndefined();
  });

  it('refuses an unknown server and a broken entry, leaving the file untouched', async () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "node" },',
      '    "broken": { "command": "" }',
      '  }',
      '}',
    );
    await writeFile(file, text);
    await store.load();
    await expect(store.setServerLogLevel('ghost', 'info')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.setServerLogLevel('broken', 'info')).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'The config entry "broken" has errors, so Berth cannot store its log level; fix it in the editor first',
    });
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});

describe('ConfigStore.pinServerOAuthIssuer', () => {
  const REMOTE = lines(
    '{',
    '  "mcpServers": {',
    '    "robot": {"url": "https://mcp.example.com/mcp", "oauth": {"grant": "client_credentials", "clientId": "ci", "clientSecret": "${secret:server/robot/oauth/clientSecret}"}},',
    '    "local": {"command": "npx"}',
    '  }',
    '}',
  );

  it('adds only oauth.issuer, and never replaces one that is there', async () => {
    await writeFile(file, REMOTE);
    await store.load();
    await store.pinServerOAuthIssuer('robot', 'https://auth.example.com');
    const pinned = await readFile(file, 'utf8');
    expect(JSON.parse(pinned)).toEqual({
      mcpServers: {
        robot: {
          url: 'https://mcp.example.com/mcp',
          oauth: {
            grant: 'client_credentials',
            clientId: 'ci',
            clientSecret: '${secret:server/robot/oauth/clientSecret}',
            issuer: 'https://auth.example.com',
          },
        },
        local: { command: 'npx' },
      },
    });
    expect(pinned.split('\n').filter((line) => !REMOTE.includes(line))).toHaveLength(1);
    await expect(store.pinServerOAuthIssuer('robot', 'https://evil.example.com')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('https://auth.example.com'),
    });
    await expect(store.pinServerOAuthIssuer('local', 'https://auth.example.com')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await readFile(file, 'utf8')).toBe(pinned);
  });
});
