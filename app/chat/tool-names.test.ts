import { describe, expect, it } from 'vitest';
import { API_TOOL_NAME_PATTERN, ToolNameMap, candidateToolName, sanitizeToolNamePart } from './tool-names';
import type { ToolRef } from './tool-names';
import { nameToolTwins } from '../../shared/domain/tool-twins';

function expectValidAndReversible(refs: ToolRef[]): ToolNameMap {
  const map = ToolNameMap.build(refs);
  const names = refs.map((ref) => map.apiName(ref.server, ref.tool));
  for (const [index, name] of names.entries()) {
    expect(name, `name for ${JSON.stringify(refs[index])}`).toMatch(API_TOOL_NAME_PATTERN);
    expect(map.resolve(name ?? '')).toEqual(refs[index]);
  }
  expect(new Set(names).size).toBe(refs.length);
  return map;
}

describe('tool names for the Messages API', () => {
  it('keeps plain names readable as server__tool', () => {
    const map = expectValidAndReversible([{ server: 'files', tool: 'read_file' }]);
    expect(map.apiName('files', 'read_file')).toBe('files__read_file');
    expect(map.entries()).toEqual([{ server: 'files', tool: 'read_file', apiName: 'files__read_file' }]);
  });

  it('gives two servers with a `search` tool distinct names that map back to each server', () => {
    const map = expectValidAndReversible([
      { server: 'web', tool: 'search' },
      { server: 'docs', tool: 'search' },
    ]);
    expect(map.apiName('web', 'search')).toBe('web__search');
    expect(map.apiName('docs', 'search')).toBe('docs__search');
    expect(map.resolve('docs__search')).toEqual({ server: 'docs', tool: 'search' });
  });

  it('sanitises spaces, dots and unicode, and adds a hash because the result is lossy', () => {
    expect(sanitizeToolNamePart('café münü')).toBe('cafe_munu');
    expect(sanitizeToolNamePart('搜索')).toBe('__');
    const refs = [
      { server: 'My Server', tool: 'get.weather' },
      { server: 'café', tool: '搜索' },
      { server: 'emoji', tool: '🔍 find' },
    ];
    const map = expectValidAndReversible(refs);
    expect(map.apiName('My Server', 'get.weather')).toMatch(/^My_Server__get_weather_[0-9a-f]{8}$/);
    expect(map.apiName('café', '搜索')).toMatch(/^cafe_{5}[0-9a-f]{8}$/);
  });

  it('keeps names that sanitise to the same string apart', () => {
    const refs = [
      { server: 'a b', tool: 'x' },
      { server: 'a.b', tool: 'x' },
      { server: 'a_b', tool: 'x' },
      { server: 'a', tool: 'b__x' },
      { server: 'a__b', tool: 'x' },
      { server: 'a_', tool: '_b__x' },
    ];
    const map = expectValidAndReversible(refs);
    // The one that is readable and unambiguous keeps its plain name.
    expect(map.apiName('a_b', 'x')).toBe('a_b__x');
    expect(map.apiName('a', 'b__x')).toBe('a__b__x');
    expect(map.apiName('a__b', 'x')).not.toBe('a__b__x');
  });

  it('truncates very long names to 64 characters and still tells them apart', () => {
    const long = 'x'.repeat(100);
    const refs = [
      { server: 'server', tool: `${long}_one` },
      { server: 'server', tool: `${long}_two` },
      { server: 's'.repeat(70), tool: 't' },
    ];
    const map = expectValidAndReversible(refs);
    for (const entry of map.entries()) expect(entry.apiName.length).toBeLessThanOrEqual(64);
    expect(map.apiName('server', `${long}_one`)).toMatch(/^server__x+_[0-9a-f]{8}$/);
  });

  it('is stable: the same tool gets the same name in every map, whatever else is offered', () => {
    const ref = { server: 'My Server', tool: 'a very long tool name '.repeat(5) };
    const first = ToolNameMap.build([ref]).apiName(ref.server, ref.tool);
    const second = ToolNameMap.build([{ server: 'other', tool: 'x' }, ref, { server: 'z', tool: 'y' }]).apiName(
      ref.server,
      ref.tool,
    );
    expect(first).toBe(second);
    expect(candidateToolName(ref)).toBe(first);
    // The order of the input does not matter either.
    const refs = [
      { server: 'b', tool: 't' },
      { server: 'a', tool: 't' },
    ];
    expect(
      ToolNameMap.build(refs)
        .entries()
        .sort((x, y) => x.apiName.localeCompare(y.apiName)),
    ).toEqual(
      ToolNameMap.build([...refs].reverse())
        .entries()
        .sort((x, y) => x.apiName.localeCompare(y.apiName)),
    );
  });

  it('resolves names the model made up to undefined and ignores duplicate refs', () => {
    const map = ToolNameMap.build([
      { server: 'a', tool: 't' },
      { server: 'a', tool: 't' },
    ]);
    expect(map.size).toBe(1);
    expect(map.resolve('nope__t')).toBeUndefined();
    expect(map.apiName('nope', 't')).toBeUndefined();
  });

  it('renames a readable name that equals another tool’s hashed name, without moving the earlier one', () => {
    const hashed = candidateToolName({ server: 'a b', tool: 'c' });
    // A server whose plain name is exactly that hashed form.
    const [server, tool] = hashed.split('__') as [string, string];
    const refs = [
      { server: 'a b', tool: 'c' },
      { server, tool },
    ];
    const map = expectValidAndReversible(refs);
    const names = refs.map((ref) => map.apiName(ref.server, ref.tool));
    expect(names).toContain(hashed);
    expect(names.some((name) => name === `${hashed}_2`)).toBe(true);
  });
});

describe('ToolNameMap over a server list whose names repeat (shared/domain/tool-twins.ts)', () => {
  it('gives every tool, twins and names equal after rewriting alike, a valid name of its own that maps back to it', () => {
    const long = 'summarize_the_quarterly_report_of_every_department_in_the_company';
    const listed = [
      'search',
      'get.item',
      'get_item',
      'search',
      `${long}_daily`,
      `${long}_weekly`,
      'get.item',
      'search_2',
    ];
    const tools = nameToolTwins(
      listed.map((name, index) => ({ name, inputSchema: { type: 'object', properties: { [`p${index}`]: {} } } })),
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      'search',
      'get.item',
      'get_item',
      'search_3',
      `${long}_daily`,
      `${long}_weekly`,
      'get.item_2',
      'search_2',
    ]);
    const refs = [
      ...tools.map((tool) => ({ server: 'dup', tool: tool.name })),
      // A second server whose name rewrites to the first's.
      { server: 'dup.', tool: 'search' },
    ];
    const map = ToolNameMap.build(refs, ['load_tools']);
    const names = refs.map((ref) => map.apiName(ref.server, ref.tool));
    expect(new Set(names).size).toBe(refs.length);
    for (const [index, name] of names.entries()) {
      expect(name).toMatch(API_TOOL_NAME_PATTERN);
      expect(map.resolve(name!)).toEqual(refs[index]);
    }
    expect(map.apiName('dup', 'search_3')).toBe('dup__search_3');
  });
});
