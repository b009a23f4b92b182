import { describe, expect, it } from 'vitest';
import { toolKey } from '../../../shared/domain/chat';
import { generateCorpus, REAL_TOOLS } from '../../../bench/generators/real-tool-corpus';
import type { AvailableTool } from '../api-messages';
import { ToolSearchIndex, ToolSearchIndexCache, toolWords } from './tool-index';

// Ranking quality on a fixed corpus: the real tool definitions of server-everything,
// server-filesystem and server-memory (listed once, bench/fixtures/real-tools.json), then the same
// repeated with variations (project words, snake/kebab/camel names) up to 2,000 tools.

/** A person's (or a model's) words, and the real tool that must be among the first five. */
const QUERIES: ReadonlyArray<[string, string]> = [
  ['read the text of a file', 'read_text_file'],
  ['write content to a new file', 'write_file'],
  ['edit lines in a text file', 'edit_file'],
  ['create a directory', 'create_directory'],
  ['list the files in a directory', 'list_directory'],
  ['directory sizes', 'list_directory_with_sizes'],
  ['recursive tree of directories', 'directory_tree'],
  ['rename or move a file', 'move_file'],
  ['find files matching a glob pattern', 'search_files'],
  ['file metadata: size, creation time, permissions', 'get_file_info'],
  ['which directories am I allowed to access', 'list_allowed_directories'],
  ['read multiple files at once', 'read_multiple_files'],
  ['read an image or audio file as base64', 'read_media_file'],
  ['sum of two numbers', 'get-sum'],
  ['echo a message back', 'echo'],
  ['print environment variables', 'get-env'],
  ['gzip compress a file', 'gzip-file-as-resource'],
  ['long running operation with progress', 'trigger-long-running-operation'],
  ['deep research on a topic', 'simulate-research-query'],
  ['create entities in the knowledge graph', 'create_entities'],
  ['delete relations from the graph', 'delete_relations'],
  ['add observations to an entity', 'add_observations'],
  ['search nodes of the knowledge graph', 'search_nodes'],
  ['open nodes by name', 'open_nodes'],
  ['tiny image', 'get-tiny-image'],
  ['resource links', 'get-resource-links'],
];

function available(count: number): { tools: AvailableTool[]; base: Map<string, string> } {
  const corpus = generateCorpus(count);
  return {
    tools: corpus.map(({ server, tool }) => ({ server, tool })),
    base: new Map(corpus.map(({ server, tool, base }) => [toolKey(server, tool.name), base])),
  };
}

describe('tool search ranking', () => {
  it('splits every name style into the same words', () => {
    expect(toolWords('readTextFile')).toEqual(['read', 'Text', 'File']);
    expect(toolWords('read_text-file')).toEqual(['read', 'text', 'file']);
    expect(toolWords('getHTTPResponse')).toEqual(['get', 'HTTP', 'Response']);
  });

  it('holds all 36 real tools, and every query names one of them', () => {
    expect(REAL_TOOLS).toHaveLength(36);
    const names = new Set(REAL_TOOLS.map(({ tool }) => tool.name));
    for (const [, expected] of QUERIES) expect(names.has(expected), expected).toBe(true);
  });

  for (const count of [36, 500, 2_000]) {
    it(`finds the expected tool in the top 5 for each of ${QUERIES.length} queries among ${count.toLocaleString('en-US')} tools`, () => {
      const { tools, base } = available(count);
      const index = new ToolSearchIndex(tools);
      const misses: string[] = [];
      for (const [query, expected] of QUERIES) {
        const top = index.query(query, 5).map((hit) => base.get(toolKey(hit.server, hit.tool)));
        if (!top.includes(expected)) misses.push(`“${query}” → ${top.join(', ')} (expected ${expected})`);
      }
      expect(misses).toEqual([]);
    });
  }

  it('puts the project named in the query first among identical tools', () => {
    const { tools } = available(2_000);
    const [first] = new ToolSearchIndex(tools).query('photos read text file', 5);
    expect(first?.tool.toLowerCase().replace(/[-_]/g, '')).toBe('photosreadtextfile');
  });

  it('finds nothing for words no tool has, and reuses the index while the tools are the same objects', () => {
    const { tools } = available(100);
    const index = new ToolSearchIndex(tools);
    expect(index.query('zebra xylophone', 5)).toEqual([]);
    const cache = new ToolSearchIndexCache();
    const first = cache.for(tools);
    expect(cache.for([...tools])).toBe(first);
    expect(cache.for(tools.slice(1))).not.toBe(first);
  });
});
