import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../shared/domain/server';
import { nameToolTwins } from '../../shared/domain/tool-twins';
import { toolTwinChange, toolTwinNote } from './tool-twin-notes';

const tool = (name: string, property: string): ToolInfo => ({
  name,
  inputSchema: { type: 'object', properties: { [property]: { type: 'string' } } },
});

describe('the server log on tools that share a name', () => {
  it('names each shared name and what the model is offered instead', () => {
    expect(toolTwinNote(nameToolTwins([tool('search', 'a'), tool('search', 'b')]))).toBe(
      "2 tools share the name 'search': the second is offered to the model as 'search_2' (MCP asks for unique tool names)",
    );
    expect(
      toolTwinNote(nameToolTwins([tool('search', 'a'), tool('search', 'b'), tool('search', 'c'), tool('x', 'd')])),
    ).toBe(
      "3 tools share the name 'search': Berth offers the second as 'search_2', the third as 'search_3' (MCP asks for unique tool names)",
    );
    expect(toolTwinNote(nameToolTwins([tool('read', 'a'), tool('read', 'a')]))).toBe(
      "'read' is listed 2 times with the same definition: it is offered once (MCP asks for unique tool names)",
    );
    expect(toolTwinNote([tool('a', 'x'), tool('b', 'y')])).toBeUndefined();
  });

  it('says what a new list changed about them, and nothing when it changed nothing', () => {
    const both = nameToolTwins([tool('search', 'a'), tool('search', 'b')]);
    const second = nameToolTwins([tool('search', 'b')]);
    expect(toolTwinChange(both, second)).toBe(
      "tools that share a name changed: now none (before: 2 tools share the name 'search': the second is offered to the model as 'search_2'); 'search_2' is gone",
    );
    expect(toolTwinChange(second, both)).toBe(
      "tools that share a name changed: now 2 tools share the name 'search': the second is offered to the model as 'search_2' (before: none)",
    );
    expect(toolTwinChange(both, nameToolTwins([tool('search', 'a'), tool('search', 'b'), tool('more', 'c')]))).toBe(
      undefined,
    );
  });
});
