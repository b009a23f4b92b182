import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForeignConfig, type ForeignFormat, type ImportCandidate, type ImportPreview } from './foreign-formats';
import { resolveCandidate, type ResolveOptions } from './resolve-inputs';

function load(format: ForeignFormat, file: string): ImportPreview {
  return parseForeignConfig(format, readFileSync(join(__dirname, 'fixtures', file), 'utf8'));
}

function pick(preview: ImportPreview, name: string): ImportCandidate {
  const candidate = preview.servers.find((server) => server.sourceName === name);
  if (candidate === undefined) throw new Error(`no candidate ${name}`);
  return candidate;
}

const vscode = load('vscode', 'vscode-mcp.json');
const base: ResolveOptions = {
  inputs: vscode.inputs,
  answers: {},
  env: { HOME: '/home/ada' },
  workspaceFolder: '/work/project',
};

describe('resolveCandidate (VS Code)', () => {
  it('substitutes inputs, uses defaults and reports password-derived env keys', () => {
    const result = resolveCandidate(pick(vscode, 'github'), { ...base, answers: { 'github-token': 'ghp_secret' } });
    expect(result).toMatchObject({
      ok: true,
      value: { name: 'github', secretEnvKeys: ['GITHUB_PERSONAL_ACCESS_TOKEN'] },
    });
    if (!result.ok) return;
    expect(result.value.config.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret', LOG_LEVEL: 'info' });
    expect(result.value.config.secretEnv).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
  });

  it('substitutes ${workspaceFolder} and ${env:NAME}', () => {
    const result = resolveCandidate(pick(vscode, 'files'), base);
    expect(result.ok && result.value.config).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/work/project'],
      cwd: '/work/project',
      env: { HOME_DIR: '/home/ada' },
    });
  });

  it('substitutes an input in the middle of an argument', () => {
    const result = resolveCandidate(pick(vscode, 'db'), { ...base, answers: { 'db-name': 'shop' } });
    expect(result.ok && result.value.config.args).toEqual(['mcp-server-sqlite', '--db-path', 'shop.db']);
  });

  it('names every missing answer', () => {
    const result = resolveCandidate(pick(vscode, 'db'), base);
    expect(result).toEqual({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'Server "db" needs a value for "Database name" (input "db-name")',
      path: 'inputs.db-name',
      hostMessage: {
        code: 'config-import-errors.needs-value',
        params: { server: 'db', description: 'Database name', input: 'db-name' },
      },
    });
  });

  it('refuses an answer that is not one of the pickString options', () => {
    const result = resolveCandidate(pick(vscode, 'github'), {
      ...base,
      answers: { 'github-token': 't', 'log-level': 'verbose' },
    });
    expect(result.ok ? '' : result.message).toMatch(
      /"verbose" is not one of the choices for "Log level" \(info, debug, error\)/,
    );
  });

  it('fails without a workspace folder or with an unset env variable', () => {
    const noFolder = resolveCandidate(pick(vscode, 'files'), {
      inputs: vscode.inputs,
      answers: {},
      env: { HOME: '/h' },
    });
    expect(noFolder.ok ? '' : noFolder.message).toMatch(/\$\{workspaceFolder\}: choose the project folder/);
    const noEnv = resolveCandidate(pick(vscode, 'files'), { ...base, env: {} });
    expect(noEnv).toMatchObject({
      ok: false,
      path: 'env.HOME_DIR',
      message: expect.stringMatching(/HOME, which is not set/) as unknown,
    });
  });

  it('fails on a variable Berth cannot fill in, and on an undeclared input', () => {
    const preview = parseForeignConfig(
      'vscode',
      JSON.stringify({ servers: { s: { command: 'x', args: ['${command:pick}'] } } }),
    );
    const unknown = resolveCandidate(pick(preview, 's'), base);
    expect(unknown.ok ? '' : unknown.message).toMatch(/\$\{command:pick\}: Berth cannot fill it in/);
    const candidate = { ...pick(preview, 's'), config: { ...pick(preview, 's').config!, args: ['${input:ghost}'] } };
    const ghost = resolveCandidate(candidate, base);
    expect(ghost.ok ? '' : ghost.message).toMatch(/input "ghost", which the file does not declare/);
  });

  it('substitutes ${userHome} when given', () => {
    const preview = parseForeignConfig(
      'vscode',
      JSON.stringify({ servers: { s: { command: '${userHome}/bin/srv' } } }),
    );
    const result = resolveCandidate(pick(preview, 's'), { ...base, userHome: '/home/ada' });
    expect(result.ok && result.value.config.command).toBe('/home/ada/bin/srv');
  });

  it('fills in a remote server: url, type and headers, with a password answer kept secret', () => {
    const result = resolveCandidate(pick(vscode, 'remote'), {
      ...base,
      answers: { 'github-token': 'ghp_typed_secret' },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.config).toMatchObject({
      url: 'https://api.githubcopilot.com/mcp/',
      headers: { Authorization: 'Bearer ghp_typed_secret' },
    });
    expect(result.value.config.command).toBeUndefined();
    const custom = parseForeignConfig(
      'vscode',
      JSON.stringify({
        inputs: [{ id: 'k', type: 'promptString', description: 'Key', password: true }],
        servers: {
          r: {
            type: 'sse',
            url: 'https://x.example/sse',
            headers: { 'X-Key': '${input:k}', 'X-Api-Token': 'abc', 'X-Team': 'core' },
          },
        },
      }),
    );
    const resolved = resolveCandidate(pick(custom, 'r'), { ...base, inputs: custom.inputs, answers: { k: 'typed' } });
    expect(resolved.ok && resolved.value.config).toMatchObject({
      type: 'sse',
      headers: { 'X-Key': 'typed', 'X-Team': 'core' },
      secretHeaders: ['X-Key', 'X-Api-Token'],
    });
  });

  it('refuses a remote address that is not https for another machine', () => {
    const preview = parseForeignConfig(
      'cursor',
      JSON.stringify({ mcpServers: { r: { url: 'http://far.example/mcp' } } }),
    );
    const result = resolveCandidate(pick(preview, 'r'), base);
    expect(result).toMatchObject({ ok: false, path: 'url' });
  });

  it('re-validates the result: a substituted empty command is refused', () => {
    const preview = parseForeignConfig(
      'vscode',
      JSON.stringify({
        inputs: [{ id: 'c', type: 'promptString', description: 'Command' }],
        servers: { s: { command: '${input:c}' } },
      }),
    );
    const result = resolveCandidate(pick(preview, 's'), { ...base, inputs: preview.inputs, answers: { c: '  ' } });
    expect(result).toMatchObject({ ok: false, path: 'command' });
  });
});

describe('resolveCandidate (other formats)', () => {
  const claudeCode = load('claude-code', 'claude-code.mcp.json');

  it('expands ${NAME} and ${NAME:-default} in .mcp.json', () => {
    const result = resolveCandidate(pick(claudeCode, 'db'), {
      inputs: [],
      answers: {},
      env: { DATABASE_URL: 'postgres://localhost/db' },
    });
    expect(result.ok && result.value.config).toMatchObject({
      command: 'uvx',
      args: ['mcp-server-postgres', '--url', 'postgres://localhost/db'],
    });
  });

  it('names an unset variable without default', () => {
    const result = resolveCandidate(pick(claudeCode, 'db'), { inputs: [], answers: {}, env: {} });
    expect(result).toMatchObject({
      ok: false,
      path: 'args.2',
      message: expect.stringMatching(/DATABASE_URL, which is not set and has no default/) as unknown,
    });
  });

  it('leaves Claude Desktop strings as they are', () => {
    const preview = parseForeignConfig(
      'claude-desktop',
      JSON.stringify({ mcpServers: { s: { command: 'x', args: ['${HOME}', '${input:a}'], env: { API_TOKEN: 't' } } } }),
    );
    const result = resolveCandidate(pick(preview, 's'), { inputs: [], answers: {}, env: { HOME: '/h' } });
    expect(result.ok && result.value).toMatchObject({
      config: { args: ['${HOME}', '${input:a}'], secretEnv: ['API_TOKEN'] },
      secretEnvKeys: [],
    });
  });
});
