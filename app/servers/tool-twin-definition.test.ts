import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../shared/domain/server';
import { nameToolTwins } from '../../shared/domain/tool-twins';
import { twinDefinition } from './tool-twin-definition';

const tool = (name: string, property: string, output?: string): ToolInfo => ({
  name,
  inputSchema: { type: 'object', properties: { [property]: { type: 'string' } } },
  ...(output !== undefined ? { outputSchema: { type: 'object', required: [output] } } : {}),
});

describe('twinDefinition', () => {
  const tools = nameToolTwins([tool('search', 'query', 'notes'), tool('read', 'path'), tool('search', 'pattern')]);

  it('hands each twin its own definition under the name the server listed', () => {
    expect(twinDefinition(tools, 'search')).toEqual({
      name: 'search',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
      outputSchema: { type: 'object', required: ['notes'] },
    });
    expect(twinDefinition(tools, 'search_2')).toEqual({
      name: 'search',
      inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
    });
  });

  it('leaves a tool without a twin, and an unknown name, to the SDK’s own cache', () => {
    expect(twinDefinition(tools, 'read')).toBeUndefined();
    expect(twinDefinition(tools, 'nothing')).toBeUndefined();
  });
});
