import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForeignConfig, type ForeignFormat, type ImportPreview } from './foreign-formats';

const FIXTURES = join(__dirname, 'fixtures');

function load(format: ForeignFormat, file: string): ImportPreview {
  return parseForeignConfig(format, readFileSync(join(FIXTURES, file), 'utf8'));
}

function byName(preview: ImportPreview, sourceName: string) {
  const candidate = preview.servers.find((server) => server.sourceName === sourceName);
  if (candidate === undefined) throw new Error(`no candidate ${sourceName}`);
  return candidate;
}

describe('parseForeignConfig: realistic files', () => {
  it('reads Claude Desktop, making names valid and flagging secret-looking env keys', () => {
    const preview = load('claude-desktop', 'claude_desktop_config.json');
    expect(preview.problems).toEqual([]);
    expect(preview.servers.map((server) => [server.sourceName, server.name, server.kind])).toEqual([
      ['filesystem', 'filesystem', 'stdio'],
      ['github', 'github', 'stdio'],
      ['sqlite/local', 'sqlite-local', 'stdio'],
    ]);
    const github = byName(preview, 'github');
    expect(github.secretEnvKeys).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(github.config?.secretEnv).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(github.config?.env.GITHUB_API_URL).toBe('https://api.github.com');
    expect(byName(preview, 'sqlite/local').config).toMatchObject({ command: 'uvx', cwd: '/Users/ada', enabled: true });
  });

  it('reads Cursor, listing url entries as remote servers', () => {
    const preview = load('cursor', 'cursor-mcp.json');
    expect(preview.problems).toEqual([]);
    const linear = byName(preview, 'linear');
    expect(linear).toMatchObject({ kind: 'remote', url: 'https://mcp.linear.app/sse' });
    expect(linear.unsupported).toBeUndefined();
    expect(linear.config).toBeUndefined();
    expect(byName(preview, 'brave-search').secretEnvKeys).toEqual(['BRAVE_API_KEY']);
    expect(byName(preview, 'memory').secretEnvKeys).toEqual([]);
  });

  it('reads .mcp.json with stdio, http (headers) and sse entries', () => {
    const preview = load('claude-code', 'claude-code.mcp.json');
    expect(preview.problems).toEqual([]);
    expect(preview.servers.map((server) => server.kind)).toEqual(['stdio', 'stdio', 'remote', 'remote']);
    expect(byName(preview, 'sentry').headers).toEqual({ Authorization: 'Bearer ${SENTRY_TOKEN}' });
    expect(byName(preview, 'db').config?.args).toEqual(['mcp-server-postgres', '--url', '${DATABASE_URL}']);
    expect(byName(preview, 'db').requiredInputs).toEqual([]);
  });

  it('reads VS Code JSONC with inputs, password-derived secrets and envFile noted', () => {
    const preview = load('vscode', 'vscode-mcp.json');
    expect(preview.inputs).toEqual([
      { id: 'github-token', type: 'promptString', description: 'GitHub Personal Access Token', password: true },
      {
        id: 'log-level',
        type: 'pickString',
        description: 'Log level',
        password: false,
        default: 'info',
        options: ['info', 'debug', 'error'],
      },
      { id: 'db-name', type: 'promptString', description: 'Database name', password: false },
    ]);
    const github = byName(preview, 'github');
    expect(github.requiredInputs).toEqual(['github-token', 'log-level']);
    expect(github.secretEnvKeys).toEqual(['GITHUB_PERSONAL_ACCESS_TOKEN']);
    expect(byName(preview, 'files').config?.cwd).toBe('${workspaceFolder}');
    expect(byName(preview, 'db').requiredInputs).toEqual(['db-name']);
    expect(byName(preview, 'remote')).toMatchObject({ kind: 'remote', requiredInputs: ['github-token'] });
    expect(preview.problems).toEqual([expect.objectContaining({ field: 'servers.db.envFile', line: 39 })]);
  });

  it('treats a password input in an env value as secret even when the key name does not look secret', () => {
    const text = JSON.stringify({
      inputs: [{ id: 'p', type: 'promptString', description: 'P', password: true }],
      servers: { s: { command: 'x', env: { SERVICE_CONF: '${input:p}' } } },
    });
    expect(parseForeignConfig('vscode', text).servers[0]?.secretEnvKeys).toEqual(['SERVICE_CONF']);
  });

  it('deduplicates names that collide after being made valid', () => {
    const text = JSON.stringify({
      mcpServers: {
        'a/b': { command: 'x' },
        'a-b': { command: 'y' },
        'A-B': { command: 'z' },
        '***': { command: 'w' },
      },
    });
    expect(parseForeignConfig('cursor', text).servers.map((server) => server.name)).toEqual([
      'a-b',
      'a-b 2',
      'A-B 3',
      'server',
    ]);
  });

  it('ignores ${input:…} in formats that have no inputs', () => {
    const text = JSON.stringify({ mcpServers: { s: { command: 'x', args: ['${input:nope}'] } } });
    const preview = parseForeignConfig('claude-desktop', text);
    expect(preview.problems).toEqual([]);
    expect(preview.servers[0]?.requiredInputs).toEqual([]);
  });
});

describe('parseForeignConfig: malformed files import nothing', () => {
  it.each([
    ['malformed-trailing-comma.json', 'claude-desktop', /Trailing comma/, 3, 43],
    ['malformed-comments.json', 'claude-desktop', /Comments are not allowed/, 2, 3],
    ['malformed-missing-comma.json', 'cursor', /Expected ','/, 4, 5],
    ['wrong-shape-servers-array.json', 'cursor', /"mcpServers" must be an object/, 2, 17],
    ['wrong-shape-top-array.json', 'claude-code', /must hold a JSON object \(found an array\)/, 1, 1],
  ] as const)('%s', (file, format, message, line, column) => {
    const preview = load(format, file);
    expect(preview.servers).toEqual([]);
    expect(preview.inputs).toEqual([]);
    expect(preview.problems[0]).toMatchObject({ line, column });
    expect(preview.problems[0]?.message).toMatch(message);
  });

  it("codes a foreign file's syntax problems: its own comment and comma rules, the parser's errors otherwise", () => {
    const problem = (text: string) => parseForeignConfig('claude-desktop', text).problems[0];
    expect(problem('{"mcpServers": {"a": {"command": "x"},}}')).toMatchObject({
      message: "Trailing comma before '}': this file is strict JSON, remove the ','",
      hostMessage: { code: 'config-import-errors.trailing-comma', params: { found: '}' } },
    });
    expect(problem('{ /* off */ "mcpServers": {}}')?.hostMessage).toEqual({
      code: 'config-import-errors.comment',
      params: {},
    });
    expect(problem('{"mcpServers": {"a": 1 "b": 2}}')?.hostMessage).toEqual({
      code: 'config-problems.syntax',
      params: { error: 'CommaExpected' },
    });
  });

  it('accepts comments and trailing commas only in VS Code files', () => {
    const text = '{\n  // note\n  "servers": { "a": { "command": "npx", }, },\n}\n';
    expect(parseForeignConfig('vscode', text).servers.map((server) => server.name)).toEqual(['a']);
    expect(parseForeignConfig('claude-code', text.replace('servers', 'mcpServers')).servers).toEqual([]);
  });

  it('refuses a file nested too deep to parse safely instead of overflowing the stack', () => {
    const text = `{"mcpServers": ${'['.repeat(50_000)}`;
    const preview = parseForeignConfig('claude-desktop', text);
    expect(preview.servers).toEqual([]);
    expect(preview.problems[0]).toMatchObject({ line: 1, column: 15 + 256 });
    expect(preview.problems[0]?.message).toMatch(/more than 256 levels deep/);
  });

  it('explains an empty file, a missing section and a file of the other family', () => {
    expect(parseForeignConfig('cursor', '  ').problems[0]?.message).toMatch(/empty/);
    expect(parseForeignConfig('claude-desktop', '{"globalShortcut": "x"}').problems[0]?.message).toMatch(
      /no "mcpServers" section/,
    );
    expect(parseForeignConfig('vscode', '{"mcpServers": {}}').problems[0]?.message).toMatch(/It has "mcpServers"/);
    expect(parseForeignConfig('cursor', '{"servers": {}}').problems[0]?.message).toMatch(/VS Code mcp.json/);
  });
});

describe('parseForeignConfig: bad entries', () => {
  const preview = load('claude-desktop', 'bad-entries.json');
  const fields = (): (string | undefined)[] => preview.problems.map((problem) => problem.field);

  it('still lists the good entries', () => {
    expect(preview.servers.map((server) => server.name)).toEqual(['also good']);
  });

  it('reports each bad entry with its field path and position', () => {
    expect(fields()).toEqual([
      'mcpServers.good',
      'mcpServers.no-command.command',
      'mcpServers.number-command.command',
      'mcpServers.args-string.args',
      'mcpServers.env-number.env.PORT',
      'mcpServers.bad-env-key.env.MY-VAR',
      'mcpServers.just-a-string',
      'mcpServers.both.url',
      'mcpServers.bad-type.type',
      'mcpServers.http-no-url.url',
    ]);
    expect(
      preview.problems.every((problem) => typeof problem.line === 'number' && typeof problem.column === 'number'),
    ).toBe(true);
    // The duplicate is reported where the second key is, the one JSON.parse would keep.
    expect(preview.problems[0]).toMatchObject({
      line: 14,
      message: expect.stringMatching(/Two servers are named "good"/) as unknown,
    });
    expect(preview.problems[1]?.message).toBe('Server "no-command": "command" is missing');
    expect(preview.problems[8]?.message).toMatch(/"type" must be "stdio", "http" or "sse" \(found "websocket"\)/);
  });

  it('reports a bad headers or url in a remote entry', () => {
    const text = JSON.stringify({
      mcpServers: {
        r: { type: 'http', url: 'https://x', headers: { A: 1 } },
        s: { type: 'sse', url: '' },
        h: { url: 'https://y', headers: [] },
      },
    });
    const bad = parseForeignConfig('claude-code', text);
    expect(bad.servers).toEqual([]);
    expect(bad.problems.map((problem) => problem.field)).toEqual([
      'mcpServers.r.headers.A',
      'mcpServers.s.url',
      'mcpServers.h.headers',
    ]);
  });
});

describe('parseForeignConfig: VS Code inputs', () => {
  const preview = load('vscode', 'vscode-unknown-input.json');

  it('keeps only valid inputs and reports the others by index', () => {
    expect(preview.inputs.map((input) => input.id)).toEqual(['api-key']);
    expect(preview.problems.slice(0, 3).map((problem) => problem.field)).toEqual([
      'inputs.1.type',
      'inputs.2.options',
      'inputs.3.id',
    ]);
  });

  it('refuses servers that use an undeclared or invalid input, naming it', () => {
    expect(preview.servers.map((server) => server.name)).toEqual(['ok', 'leaks']);
    expect(preview.problems.find((problem) => problem.field === 'servers.typo')?.message).toMatch(
      /"\$\{input:api-kee\}".*no input with id "api-kee"/,
    );
    expect(preview.problems.find((problem) => problem.field === 'servers.uses-broken')?.message).toMatch(
      /input "broken", which is not valid/,
    );
  });

  it('warns when a password input is passed in arguments', () => {
    expect(preview.problems.find((problem) => problem.field === 'servers.leaks.args')?.message).toMatch(/plain text/);
  });

  it('reports a non-array inputs section and bad input fields', () => {
    const notArray = parseForeignConfig('vscode', JSON.stringify({ inputs: {}, servers: {} }));
    expect(notArray.problems).toEqual([
      expect.objectContaining({ field: 'inputs', message: '"inputs" must be an array (found an object)' }),
    ]);
    const fields = parseForeignConfig(
      'vscode',
      JSON.stringify({
        inputs: [
          'x',
          { type: 'promptString' },
          { id: 'a', type: 'promptString', description: 3 },
          { id: 'b', type: 'promptString', password: 'yes' },
          { id: 'c', type: 'promptString', default: 1 },
          { id: 'd', type: 'pickString', options: [1] },
        ],
        servers: {},
      }),
    );
    expect(fields.inputs).toEqual([]);
    expect(fields.problems.map((problem) => problem.field)).toEqual([
      'inputs.0',
      'inputs.1.id',
      'inputs.2.description',
      'inputs.3.password',
      'inputs.4.default',
      'inputs.5.options',
    ]);
  });
});

describe('parseForeignConfig: every problem Berth words carries its code', () => {
  // Syntax errors are the parser's words and stay as they are; everything else is Berth's sentence, coded.
  const malformed: [ForeignFormat, string][] = [
    ['cursor', '  '],
    ['claude-code', '[1]'],
    ['claude-desktop', '{"globalShortcut": "x"}'],
    ['vscode', '{"mcpServers": {}}'],
    ['cursor', '{"mcpServers": []}'],
    ['claude-desktop', `{"mcpServers": ${'['.repeat(300)}`],
    ['claude-desktop', readFileSync(join(FIXTURES, 'bad-entries.json'), 'utf8')],
    ['vscode', readFileSync(join(FIXTURES, 'vscode-unknown-input.json'), 'utf8')],
    [
      'vscode',
      JSON.stringify({
        inputs: [
          'x',
          { type: 'promptString' },
          { id: 'a', type: 'promptString', description: 3 },
          { id: 'a', type: 'promptString' },
          { id: 'b', type: 'promptString', password: 'yes' },
          { id: 'c', type: 'promptString', default: 1 },
          { id: 'd', type: 'pickString', options: [1] },
          { id: 'e' },
        ],
        servers: {
          r: { type: 'http', url: 'https://x', headers: { A: 1 } },
          h: { url: 'https://y', headers: [] },
          f: { command: 'npx', envFile: '.env' },
          c: { command: 'npx', cwd: '' },
        },
      }),
    ],
    ['vscode', JSON.stringify({ inputs: {}, servers: {} })],
  ];

  it.each(malformed)('%s: %s', (format, text) => {
    const { problems } = parseForeignConfig(format, text);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(problem.hostMessage?.code, problem.message).toMatch(/^config-(import-errors|problems)\./);
    }
  });

  it('gives the facts as params, not words: a type found, an input by position, a server by name', () => {
    const inputs = parseForeignConfig('vscode', JSON.stringify({ inputs: [null, { type: 'x' }], servers: {} }));
    expect(inputs.problems.map((problem) => problem.hostMessage)).toEqual([
      { code: 'config-import-errors.input-not-object', params: { position: 1, found: 'null' } },
      { code: 'config-import-errors.input-id-missing', params: { position: 2 } },
    ]);
    const entries = load('claude-desktop', 'bad-entries.json');
    expect(entries.problems[1]).toMatchObject({
      message: 'Server "no-command": "command" is missing',
      hostMessage: { code: 'config-import-errors.command-missing', params: { server: 'no-command' } },
    });
    expect(entries.problems[8]?.hostMessage).toEqual({
      code: 'config-import-errors.type-unknown',
      params: { server: 'bad-type', found: '"websocket"' },
    });
    expect(parseForeignConfig('vscode', '{"mcpServers": {}}').problems[0]?.hostMessage).toEqual({
      code: 'config-import-errors.no-section-other',
      params: { key: 'servers', other: 'mcpServers' },
    });
  });
});
