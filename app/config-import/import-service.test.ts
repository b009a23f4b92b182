import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportSource } from '../../shared/contract/config-import';
import { SECRET_MASK, ServerConfigSchema } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { ConfigStore } from '../config/config-store';
import { ConfigImportService, type ConfigImportOptions } from './import-service';

const FIXTURES = join(__dirname, 'fixtures');
const GITHUB_TOKEN = 'ghp_exampleexampleexample';

let dir: string;
let home: string;
let configFile: string;
let store: ConfigStore;
let service: ConfigImportService;

/** Puts a fixture where the app that writes it keeps it (Linux paths, XDG_CONFIG_HOME under the temp home). */
async function place(fixture: string, ...path: string[]): Promise<string> {
  const target = join(home, ...path);
  await mkdir(join(target, '..'), { recursive: true });
  await copyFile(join(FIXTURES, fixture), target);
  return target;
}

async function fixtureText(fixture: string): Promise<string> {
  return readFile(join(FIXTURES, fixture), 'utf8');
}

async function configText(): Promise<string> {
  return readFile(configFile, 'utf8').catch(() => '');
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-import-'));
  home = join(dir, 'home');
  await mkdir(home);
  configFile = join(dir, 'berth', 'config.json');
  await mkdir(join(dir, 'berth'));
  store = new ConfigStore({ filePath: configFile });
  await store.load();
  service = new ConfigImportService(serviceOptions());
});

function serviceOptions(): ConfigImportOptions {
  return {
    config: {
      servers: () => store.servers(),
      takenNames: () => store.names(),
      addServers: (entries) => store.addServers(entries),
    },
    platform: 'linux',
    home,
    env: { HOME: '/home/ada', XDG_CONFIG_HOME: join(home, '.config') },
  };
}

afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('locations', () => {
  it('lists every known file and says which exist', async () => {
    const claude = await place('claude_desktop_config.json', '.config', 'Claude', 'claude_desktop_config.json');
    await mkdir(join(home, '.cursor', 'mcp.json'), { recursive: true });
    const locations = await service.locations();
    expect(locations.map((location) => [location.id, location.exists, location.problem])).toEqual([
      ['claude-desktop', true, undefined],
      ['cursor', true, `${join(home, '.cursor', 'mcp.json')} is not a file`],
      ['vscode-user', false, undefined],
    ]);
    expect(locations[0]?.path).toBe(claude);
  });

  it('adds the project files for a project folder, and refuses a relative one', async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, '.vscode'), { recursive: true });
    await copyFile(join(FIXTURES, 'vscode-mcp.json'), join(project, '.vscode', 'mcp.json'));
    const locations = await service.locations(project);
    expect(locations.slice(3).map((location) => [location.id, location.exists])).toEqual([
      ['claude-code-project', false],
      ['vscode-workspace', true],
    ]);
    await expect(service.locations('project')).rejects.toThrow(/absolute path/);
  });
});

describe('preview', () => {
  it('reads a detected Claude Desktop file, masking secret values', async () => {
    await place('claude_desktop_config.json', '.config', 'Claude', 'claude_desktop_config.json');
    const preview = await service.preview({ kind: 'location', id: 'claude-desktop' });
    expect(preview.problems).toEqual([]);
    expect(preview.servers.map((server) => server.name)).toEqual(['filesystem', 'github', 'sqlite-local']);
    const github = preview.servers[1];
    expect(github?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: SECRET_MASK,
      GITHUB_API_URL: 'https://api.github.com',
    });
    expect(JSON.stringify(preview)).not.toContain(GITHUB_TOKEN);
  });

  it('marks duplicates and suggests a free name for a same-name one', async () => {
    await store.addServer('GitHub', ServerConfigSchema.parse({ command: 'docker', enabled: false }));
    const preview = await service.preview({
      kind: 'text',
      format: 'claude-desktop',
      text: await fixtureText('claude_desktop_config.json'),
    });
    const github = preview.servers.find((server) => server.sourceName === 'github');
    expect(github?.duplicateOf).toMatchObject({ name: 'GitHub', reason: 'same-name' });
    expect(github?.name).toBe('github 2');
  });

  it('shows remote entries with header names but not their values', async () => {
    const preview = await service.preview({
      kind: 'text',
      format: 'claude-code',
      text: await fixtureText('claude-code.mcp.json'),
    });
    const sentry = preview.servers.find((server) => server.sourceName === 'sentry');
    expect(sentry).toMatchObject({ kind: 'remote', headerNames: ['Authorization'] });
    expect(sentry?.unsupported).toBeUndefined();
    expect(JSON.stringify(preview)).not.toContain('Bearer');
  });

  it('gives VS Code inputs without a password default, and flags ${workspaceFolder}', async () => {
    const text = (await fixtureText('vscode-mcp.json')).replace(
      '"password": true,',
      '"password": true, "default": "ghp_default_secret",',
    );
    const preview = await service.preview({ kind: 'text', format: 'vscode', text });
    expect(preview.inputs[0]).toEqual({
      id: 'github-token',
      type: 'promptString',
      description: 'GitHub Personal Access Token',
      password: true,
      hasDefault: true,
    });
    expect(preview.inputs[1]).toMatchObject({ default: 'info', hasDefault: true });
    expect(JSON.stringify(preview)).not.toContain('ghp_default_secret');
    expect(preview.servers.map((server) => [server.sourceName, server.usesWorkspaceFolder])).toEqual([
      ['github', false],
      ['files', true],
      ['db', false],
      ['remote', false],
    ]);
  });

  it('reports problems with line and column for a malformed file, and lists no servers', async () => {
    const preview = await service.preview({
      kind: 'text',
      format: 'claude-desktop',
      text: await fixtureText('malformed-trailing-comma.json'),
    });
    expect(preview.servers).toEqual([]);
    expect(preview.problems[0]).toMatchObject({
      line: 3,
      column: 43,
      message: expect.stringMatching(/Trailing comma/) as unknown,
    });
  });

  it("shows what a project's .mcp.json would run: the resolved file, and the env keys and project commands to look at", async () => {
    const project = join(dir, 'project');
    const bin = join(dir, 'system-bin');
    await mkdir(join(project, 'bin'), { recursive: true });
    await mkdir(bin);
    for (const tool of [join(project, 'bin', 'node'), join(bin, 'node'), join(bin, 'npx')]) {
      await writeFile(tool, '#!/bin/sh\n');
      await chmod(tool, 0o755);
    }
    const mcp = {
      mcpServers: {
        hooked: {
          command: 'node',
          args: ['server.js'],
          env: { PATH: './bin:/usr/bin', NODE_OPTIONS: '--require ./.cache/hook.js' },
        },
        plain: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        preload: { command: 'node', env: { LD_PRELOAD: '${PWD}/evil.so' } },
      },
    };
    await writeFile(join(project, '.mcp.json'), JSON.stringify(mcp));
    const reviewing = new ConfigImportService({
      ...serviceOptions(),
      launchPath: () => Promise.resolve(bin),
      cwd: project,
    });
    const preview = await reviewing.preview({ kind: 'location', id: 'claude-code-project', projectFolder: project });
    const [hooked, plain, preload] = preview.servers;
    expect(hooked).toMatchObject({
      command: 'node',
      args: ['server.js'],
      env: mcp.mcpServers.hooked.env,
      resolvedCommand: join(project, 'bin', 'node'),
    });
    expect(hooked?.warnings.map((warning) => warning.key ?? warning.message)).toEqual([
      'PATH',
      'NODE_OPTIONS',
      `The command resolves to ${join(project, 'bin', 'node')}, inside the imported project: the project's files decide what runs`,
    ]);
    expect(plain).toMatchObject({ resolvedCommand: join(bin, 'npx'), warnings: [] });
    expect(preload).toMatchObject({
      resolvedCommand: join(bin, 'node'),
      warnings: [{ kind: 'env', key: 'LD_PRELOAD' }],
    });
  });

  it('says clearly when a detected file is missing or needs a project folder', async () => {
    await expect(service.preview({ kind: 'location', id: 'cursor' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/no Cursor config at/) as unknown,
    });
    await expect(service.preview({ kind: 'location', id: 'vscode-workspace' })).rejects.toThrow(HostError);
  });
});

describe('apply', () => {
  const claudeText = (): Promise<ImportSource> =>
    fixtureText('claude_desktop_config.json').then((text) => ({ kind: 'text', format: 'claude-desktop', text }));

  it('adds the selected servers in one write, secrets marked secret', async () => {
    await place('claude_desktop_config.json', '.config', 'Claude', 'claude_desktop_config.json');
    const outcome = await service.apply({
      source: { kind: 'location', id: 'claude-desktop' },
      servers: [
        { sourceName: 'github', name: 'github' },
        { sourceName: 'sqlite/local', name: 'sqlite' },
      ],
      answers: {},
    });
    expect(outcome).toEqual({ imported: true, added: ['github', 'sqlite'] });
    const servers = store.servers();
    expect(Object.keys(servers)).toEqual(['github', 'sqlite']);
    expect(servers.github).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN },
      secretEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    expect(servers.sqlite).toMatchObject({ command: 'uvx', cwd: '/Users/ada' });
    // Added turned off: a file from elsewhere runs nothing until the person turns each server on.
    expect([servers.github?.enabled, servers.sqlite?.enabled]).toEqual([false, false]);
    expect(await configText()).toMatch(/"enabled": false[\s\S]*"enabled": false/);
  });

  it('turns password answers into secret env values that the export leaves out', async () => {
    const outcome = await service.apply({
      source: { kind: 'text', format: 'vscode', text: await fixtureText('vscode-mcp.json') },
      servers: [{ sourceName: 'github', name: 'gh' }],
      answers: { 'github-token': 'ghp_typed_by_the_person' },
    });
    expect(outcome.imported).toBe(true);
    expect(store.servers().gh).toMatchObject({
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_typed_by_the_person', LOG_LEVEL: 'info' },
      secretEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
    });
    const exported = service.export();
    expect(exported.text).not.toContain('ghp_typed_by_the_person');
    expect(exported.omittedSecrets).toEqual([{ server: 'gh', key: 'GITHUB_PERSONAL_ACCESS_TOKEN' }]);
    expect(JSON.parse(exported.text)).toEqual({
      mcpServers: { gh: expect.objectContaining({ command: 'docker', env: { LOG_LEVEL: 'info' } }) as unknown },
    });
  });

  it('fills ${workspaceFolder} from the project a workspace file belongs to', async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, '.vscode'), { recursive: true });
    await copyFile(join(FIXTURES, 'vscode-mcp.json'), join(project, '.vscode', 'mcp.json'));
    const outcome = await service.apply({
      source: { kind: 'location', id: 'vscode-workspace', projectFolder: project },
      servers: [{ sourceName: 'files', name: 'files' }],
      answers: {},
    });
    expect(outcome.imported).toBe(true);
    expect(store.servers().files).toMatchObject({ cwd: project, env: { HOME_DIR: '/home/ada' } });
  });

  it('writes nothing when any selected candidate fails, and names each failure', async () => {
    await store.addServer('filesystem', ServerConfigSchema.parse({ command: 'x' }));
    const before = await configText();
    const outcome = await service.apply({
      source: { kind: 'text', format: 'vscode', text: await fixtureText('vscode-mcp.json') },
      servers: [
        { sourceName: 'github', name: 'github' },
        { sourceName: 'db', name: 'FileSystem' },
        { sourceName: 'remote', name: 'remote' },
        { sourceName: 'files', name: 'GITHUB' },
        { sourceName: 'gone', name: 'gone' },
      ],
      answers: {},
    });
    expect(outcome.imported).toBe(false);
    const failures = outcome.imported ? [] : outcome.failures;
    expect(failures.map((failure) => [failure.sourceName, failure.field])).toEqual([
      ['github', 'inputs.github-token'],
      ['db', 'name'],
      ['db', 'inputs.db-name'],
      ['remote', 'inputs.github-token'],
      ['files', 'name'],
      ['files', 'args.2'],
      ['gone', undefined],
    ]);
    expect(failures[1]?.message).toBe('Berth already has a server named "filesystem": choose another name');
    expect(failures[3]?.message).toMatch(/needs a value for .* \(input "github-token"\)/);
    expect(failures[4]?.message).toBe('"github" is also being imported as "GITHUB": give each server its own name');
    expect(failures[5]?.message).toMatch(/\$\{workspaceFolder\}: choose the project folder/);
    expect(failures[6]?.message).toMatch(/no longer in the file/);
    expect(await configText()).toBe(before);
  });

  it('imports nothing from a malformed file', async () => {
    const outcome = await service.apply({
      source: { kind: 'text', format: 'cursor', text: await fixtureText('malformed-missing-comma.json') },
      servers: [{ sourceName: 'memory', name: 'memory' }],
      answers: {},
    });
    expect(outcome).toMatchObject({
      imported: false,
      failures: [
        {
          sourceName: 'memory',
          message: expect.stringMatching(/^The file cannot be read \(line 4, column 5: Expected ','/) as unknown,
        },
      ],
    });
    expect(await configText()).toBe('');
  });

  it('refuses the same server selected twice', async () => {
    const outcome = await service.apply({
      source: await claudeText(),
      servers: [
        { sourceName: 'github', name: 'a' },
        { sourceName: 'github', name: 'b' },
      ],
      answers: {},
    });
    expect(outcome).toEqual({
      imported: false,
      failures: [
        {
          sourceName: 'github',
          message: 'Server "github" is selected twice: import it once',
          hostMessage: { code: 'config-import-errors.selected-twice', params: { server: 'github' } },
        },
      ],
    });
    expect(await configText()).toBe('');
  });

  it('refuses a relative project folder', async () => {
    const outcome = await service.apply({
      source: await claudeText(),
      servers: [{ sourceName: 'github', name: 'github' }],
      answers: {},
      workspaceFolder: 'rel',
    });
    expect(outcome).toMatchObject({
      imported: false,
      failures: [
        {
          field: 'workspaceFolder',
          hostMessage: { code: 'config-import-errors.folder-not-absolute', params: { folder: 'rel' } },
        },
      ],
    });
  });

  it('keeps the comments and text of an existing config when adding', async () => {
    await writeFile(configFile, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n  },\n  "note": "mine"\n}\n');
    await store.load();
    const outcome = await service.apply({
      source: await claudeText(),
      servers: [{ sourceName: 'filesystem', name: 'fs' }],
      answers: {},
    });
    expect(outcome.imported).toBe(true);
    const text = await configText();
    expect(text).toContain('"a": { "command": "x" }');
    expect(text).toContain('"note": "mine"');
    expect(Object.keys(store.servers())).toEqual(['a', 'fs']);
  });
});
