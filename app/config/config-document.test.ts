import { describe, expect, it } from 'vitest';
import { parseConfigText, positionAt } from './config-document';

const lines = (...rows: string[]): string => rows.join('\n');

describe('positionAt', () => {
  it('counts 1-based lines and columns', () => {
    const text = 'ab\ncd\n\nef';
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt(text, 1)).toEqual({ line: 1, column: 2 });
    expect(positionAt(text, 3)).toEqual({ line: 2, column: 1 });
    expect(positionAt(text, 6)).toEqual({ line: 3, column: 1 });
    expect(positionAt(text, 8)).toEqual({ line: 4, column: 2 });
  });
});

describe('parseConfigText syntax errors', () => {
  it('points a trailing comma at the comma itself', () => {
    const doc = parseConfigText(lines('{', '  "mcpServers": {', '    "a": { "command": "x" },', '  }', '}'));
    expect(doc.fatal[0]).toMatchObject({ line: 3, column: 28 });
    expect(doc.fatal[0]?.message).toMatch(/trailing comma/i);
    expect(doc.servers.size).toBe(0);
  });

  it('points a trailing comma inside an array at the comma', () => {
    const doc = parseConfigText(
      lines('{', '  "mcpServers": {', '    "a": { "command": "x", "args": ["1", ] }', '  }', '}'),
    );
    expect(doc.fatal[0]).toMatchObject({ line: 3, column: 40 });
  });

  it('reports a missing closing quote on line 5 at the string that runs on', () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "a": {',
      '      "args": [],',
      '      "command": "npx,',
      '      "env": {}',
      '    }',
      '  }',
      '}',
    );
    const doc = parseConfigText(text);
    expect(doc.fatal[0]).toMatchObject({ line: 5, column: 18 });
    expect(doc.fatal[0]?.message).toMatch(/closing double quote/);
  });

  it('reports a missing comma between properties where the next one starts', () => {
    const doc = parseConfigText(
      lines('{', '  "mcpServers": {', '    "a": { "command": "x" }', '    "b": { "command": "y" }', '  }', '}'),
    );
    expect(doc.fatal[0]).toMatchObject({ line: 4, column: 5 });
    expect(doc.fatal[0]?.message).toMatch(/','/);
  });

  it('rejects line and block comments with their position', () => {
    expect(parseConfigText(lines('{', '  // servers', '  "mcpServers": {}', '}')).fatal[0]).toMatchObject({
      line: 2,
      column: 3,
    });
    const block = parseConfigText(lines('{', '  "mcpServers": {} /* note */', '}'));
    expect(block.fatal[0]).toMatchObject({ line: 2, column: 20 });
    expect(block.fatal[0]?.message).toMatch(/Comments are not allowed/);
  });

  it('explains a byte-order mark and a truncated file', () => {
    expect(parseConfigText('\uFEFF{"mcpServers": {}}').fatal[0]?.message).toMatch(/byte-order mark/);
    expect(parseConfigText('{"mcpServers": {').fatal[0]?.message).toMatch(/ends too early/);
  });

  it("codes each syntax problem by the parser's error, the file's end nesting the problem it ends in", () => {
    const missingComma = parseConfigText(lines('{', '  "mcpServers": {', '    "a": {}', '    "b": {}', '  }', '}'));
    expect(missingComma.fatal[0]).toMatchObject({
      message: "Expected ',' between items",
      hostMessage: { code: 'config-problems.syntax', params: { error: 'CommaExpected' } },
    });
    expect(parseConfigText('{"mcpServers": {"a": {},}}').fatal[0]?.hostMessage).toEqual({
      code: 'config-problems.trailing-comma',
      params: { found: '}' },
    });
    expect(parseConfigText('\uFEFF{"mcpServers": {}}').fatal[0]?.hostMessage).toEqual({
      code: 'config-problems.bom',
      params: {},
    });
    expect(parseConfigText('{"mcpServers": {').fatal[0]).toMatchObject({
      message: "Expected '}' to close the object (the file ends too early)",
      hostMessage: {
        code: 'config-problems.ends-early',
        params: { reason: "Expected '}' to close the object" },
        cause: { code: 'config-problems.syntax', params: { error: 'CloseBraceExpected' } },
      },
    });
  });

  it('treats an empty file as an empty config', () => {
    const doc = parseConfigText('  \n');
    expect(doc.fatal).toEqual([]);
    expect(doc.entryProblems).toEqual([]);
    expect(doc.servers.size).toBe(0);
  });
});

describe('parseConfigText shapes and schema', () => {
  it.each([
    ['[]', /found an array/],
    ['"text"', /found a string/],
    ['null', /found null/],
    ['42', /found a number/],
    ['{"mcpServers": []}', /"mcpServers" must be an object/],
    ['{"mcpServers": "x"}', /"mcpServers" must be an object/],
    ['{"mcpServers": {}, "mcpServers": {}}', /appears twice/],
  ])('makes %s invalid as a whole', (text, message) => {
    const doc = parseConfigText(text);
    expect(doc.fatal).toHaveLength(1);
    expect(doc.fatal[0]?.message).toMatch(message);
    expect(doc.servers.size).toBe(0);
  });

  it('accepts a file without mcpServers and keeps unknown keys out of the servers', () => {
    const doc = parseConfigText('{"globalShortcut": "Ctrl+Space"}');
    expect(doc.fatal).toEqual([]);
    expect(doc.names).toEqual([]);
  });

  it('skips only the broken entries and names the field', () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "good": { "command": "npx", "args": ["-y", "x"], "extra": true },',
      '    "nocmd": { "args": [] },',
      '    "badargs": { "command": "node", "args": "server.js" },',
      '    "-bad-name": { "command": "node" }',
      '  }',
      '}',
    );
    const doc = parseConfigText(text);
    expect(doc.fatal).toEqual([]);
    expect([...doc.servers.keys()]).toEqual(['good']);
    expect(doc.servers.get('good')).toMatchObject({ command: 'npx', args: ['-y', 'x'], env: {}, enabled: true });
    expect(doc.names).toEqual(['good', 'nocmd', 'badargs', '-bad-name']);
    expect(doc.entryProblems).toEqual([
      expect.objectContaining({
        field: 'mcpServers.nocmd.command',
        line: 4,
        message: expect.stringMatching(/"command" is missing/),
      }),
      expect.objectContaining({
        field: 'mcpServers.badargs.args',
        line: 5,
        column: 45,
        message: expect.stringMatching(/must be an array \(found a string\)/),
      }),
      expect.objectContaining({
        field: 'mcpServers.-bad-name',
        line: 6,
        message: expect.stringMatching(/not allowed/),
      }),
    ]);
    // Each carries its code and facts beside the English, for the renderer to word.
    expect(doc.entryProblems.map((problem) => problem.hostMessage)).toEqual([
      { code: 'config-problems.command-missing', params: { name: 'nocmd' } },
      {
        code: 'config-problems.wrong-type',
        params: { name: 'badargs', key: 'args', expected: 'array', found: 'string' },
      },
      { code: 'config-problems.name-not-allowed', params: { name: '-bad-name', rule: 'characters' } },
    ]);
  });

  it('reports nested field paths', () => {
    const doc = parseConfigText(
      '{"mcpServers": {"a": {"command": "x", "env": {"OK": "1", "N": 2}, "timeouts": {"startupMs": 5}}}}',
    );
    expect(doc.entryProblems.map((p) => p.field)).toEqual(['mcpServers.a.env.N', 'mcpServers.a.timeouts.startupMs']);
  });

  it('treats duplicate server names and duplicate fields as broken, ambiguous entries', () => {
    const doc = parseConfigText(
      '{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}, "b": {"command": "x", "command": "z"}, "c": {"command": "c"}}}',
    );
    expect([...doc.servers.keys()]).toEqual(['c']);
    expect([...doc.ambiguousNames].sort()).toEqual(['a', 'b']);
    expect(doc.entryProblems.map((p) => p.field)).toEqual(['mcpServers.a', 'mcpServers.b.command']);
  });
});
