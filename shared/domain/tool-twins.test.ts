import { describe, expect, it } from 'vitest';
import type { ToolInfo } from './server';
import { nameToolTwins, repeatedTools, toolTwinGroups } from './tool-twins';

const tool = (name: string, property: string, description?: string): ToolInfo => ({
  name,
  ...(description !== undefined ? { description } : {}),
  inputSchema: { type: 'object', properties: { [property]: { type: 'string' } } },
});

describe('nameToolTwins', () => {
  it('renames the second tool of a name to name_2, in the order the server lists them', () => {
    const named = nameToolTwins([tool('search', 'query'), tool('read', 'path'), tool('search', 'pattern')]);
    expect(named.map((entry) => [entry.name, entry.listedName])).toEqual([
      ['search', undefined],
      ['read', undefined],
      ['search_2', 'search'],
    ]);
    expect(named[2]?.inputSchema).toEqual(tool('search', 'pattern').inputSchema);
  });

  it('gives the same names to the same list every time (a restart, a list read again)', () => {
    const list = [tool('search', 'a'), tool('search', 'b'), tool('search', 'c')];
    expect(nameToolTwins(list).map((entry) => entry.name)).toEqual(['search', 'search_2', 'search_3']);
    expect(nameToolTwins([...list])).toEqual(nameToolTwins(list));
  });

  it('never takes a name the server lists itself, even one listed after the twin', () => {
    const named = nameToolTwins([tool('search', 'a'), tool('search', 'b'), tool('search_2', 'c')]);
    expect(named.map((entry) => entry.name)).toEqual(['search', 'search_3', 'search_2']);
    expect(new Set(named.map((entry) => entry.name)).size).toBe(3);
  });

  it('keeps a tool listed again with the very same definition once, counting the repeats', () => {
    const named = nameToolTwins([tool('search', 'a'), tool('search', 'a'), tool('search', 'b'), tool('search', 'a')]);
    expect(named.map((entry) => [entry.name, entry.repeats])).toEqual([
      ['search', 2],
      ['search_2', undefined],
    ]);
    expect(repeatedTools(named)).toEqual([{ name: 'search', repeats: 2 }]);
  });

  it('leaves a list without twins as it is (the same objects)', () => {
    const list = [tool('a', 'x'), tool('b', 'y')];
    const named = nameToolTwins(list);
    expect(named).toEqual(list);
    expect(named[0]).toBe(list[0]);
  });
});

describe('toolTwinGroups', () => {
  const named = nameToolTwins([
    tool('search', 'a'),
    tool('search', 'b'),
    tool('fetch', 'c'),
    tool('search', 'd'),
    tool('fetch', 'e'),
  ]);

  it('groups the renamed tools by the name they share', () => {
    expect(toolTwinGroups(named)).toEqual([
      { listedName: 'search', renamed: ['search_2', 'search_3'] },
      { listedName: 'fetch', renamed: ['fetch_2'] },
    ]);
    expect(toolTwinGroups([tool('a', 'x')])).toEqual([]);
  });
});
