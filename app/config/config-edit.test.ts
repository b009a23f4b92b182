import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, type ServerConfigInput } from '../../shared/domain/server';
import { parseConfigText } from './config-document';
import { detectStyle, removeServerEntry, serializeServerConfig, writeServerEntry } from './config-edit';

const cfg = (input: ServerConfigInput) => ServerConfigSchema.parse(input);
const write = (text: string, name: string, input: ServerConfigInput, previousName?: string) =>
  writeServerEntry(parseConfigText(text), name, cfg(input), previousName);

describe('serializeServerConfig', () => {
  it('writes command and args always and other fields only when they differ from the defaults', () => {
    expect(serializeServerConfig(cfg({ command: 'npx' }))).toEqual({ command: 'npx', args: [] });
    expect(
      serializeServerConfig(
        cfg({ command: 'npx', cwd: '/w', enabled: false, timeouts: { startupMs: 5_000 }, logLevel: 'debug' }),
      ),
    ).toEqual({
      command: 'npx',
      args: [],
      cwd: '/w',
      enabled: false,
      timeouts: { startupMs: 5_000, requestMs: 60_000, maxTotalMs: 600_000 },
      logLevel: 'debug',
    });
  });
});

describe('detectStyle', () => {
  it('follows tabs, space counts and CRLF', () => {
    expect(detectStyle('{\n\t"a": 1\n}')).toEqual({ unit: '\t', eol: '\n' });
    expect(detectStyle('{\r\n    "a": 1\r\n}')).toEqual({ unit: '    ', eol: '\r\n' });
    expect(detectStyle('{"a": 1}')).toEqual({ unit: '  ', eol: '\n' });
  });
});

describe('writeServerEntry', () => {
  it('adds mcpServers to a file that has none, in the file’s layout', () => {
    expect(write('{"globalShortcut": "x"}', 'a', { command: 'node' })).toBe(
      '{"globalShortcut": "x", "mcpServers": {"a": {"command": "node", "args": []}}}',
    );
    expect(write('{\n  "globalShortcut": "x"\n}\n', 'a', { command: 'node' })).toBe(
      '{\n  "globalShortcut": "x",\n  "mcpServers": {\n    "a": {\n      "command": "node",\n      "args": []\n    }\n  }\n}\n',
    );
  });

  it('fills an empty mcpServers object', () => {
    expect(write('{\n  "mcpServers": {}\n}\n', 'a', { command: 'node', args: ['s.js'] })).toBe(
      '{\n  "mcpServers": {\n    "a": {\n      "command": "node",\n      "args": [\n        "s.js"\n      ]\n    }\n  }\n}\n',
    );
  });

  it('keeps tabs and CRLF line endings', () => {
    const text = '{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "x"\r\n\t\t}\r\n\t}\r\n}\r\n';
    expect(write(text, 'b', { command: 'y' })).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "x"\r\n\t\t},\r\n\t\t"b": {\r\n\t\t\t"command": "y",\r\n\t\t\t"args": []\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('inserts after a broken last entry without rewriting its line', () => {
    const text = '{\n  "mcpServers": {\n    "ok": {"command": "x"},    "broken":   {"args":  7}\n  }\n}\n';
    const next = write(text, 'new', { command: 'y' });
    expect(next).toBe(
      '{\n  "mcpServers": {\n    "ok": {"command": "x"},    "broken":   {"args":  7},\n    "new": {\n      "command": "y",\n      "args": []\n    }\n  }\n}\n',
    );
  });

  it('keeps unknown keys and a multi-line value’s block layout when replacing', () => {
    const text =
      '{\n  "mcpServers": {\n    "a": {\n      "x-extra": [1, 2],\n      "command": "x",\n      "env": {\n        "A": "1"\n      }\n    }\n  }\n}\n';
    expect(write(text, 'a', { command: 'x', env: { A: '1', B: '2' } })).toBe(
      '{\n  "mcpServers": {\n    "a": {\n      "x-extra": [1, 2],\n      "command": "x",\n      "env": {\n        "A": "1",\n        "B": "2"\n      }\n    }\n  }\n}\n',
    );
  });

  it('drops a field that returns to its default and keeps an explicit default that still holds', () => {
    const text = '{"mcpServers": {"a": {"command": "x", "args": [], "enabled": false, "env": {}}}}';
    expect(write(text, 'a', { command: 'x' })).toBe('{"mcpServers": {"a": {"command": "x", "args": [], "env": {}}}}');
  });

  it('replaces an entry that is not an object', () => {
    expect(write('{"mcpServers": {"a": 5, "b": {"command": "b"}}}', 'a', { command: 'x' })).toBe(
      '{"mcpServers": {"a": {"command": "x", "args": []}, "b": {"command": "b"}}}',
    );
  });
});

describe('removeServerEntry', () => {
  const text =
    '{\n  "mcpServers": {\n    "a": {"command": "a"},\n    "b": {"command": "b"},\n    "c": {"command": "c"}\n  }\n}\n';
  const remove = (source: string, name: string) => removeServerEntry(parseConfigText(source), name);

  it('removes the first, a middle and the last entry with their commas', () => {
    expect(remove(text, 'a')).toBe(
      '{\n  "mcpServers": {\n    "b": {"command": "b"},\n    "c": {"command": "c"}\n  }\n}\n',
    );
    expect(remove(text, 'b')).toBe(
      '{\n  "mcpServers": {\n    "a": {"command": "a"},\n    "c": {"command": "c"}\n  }\n}\n',
    );
    expect(remove(text, 'c')).toBe(
      '{\n  "mcpServers": {\n    "a": {"command": "a"},\n    "b": {"command": "b"}\n  }\n}\n',
    );
  });

  it('leaves an empty object when the only entry goes', () => {
    expect(remove('{"mcpServers": {"a": {"command": "a"}}, "x": 1}', 'a')).toBe('{"mcpServers": {}, "x": 1}');
  });
});
