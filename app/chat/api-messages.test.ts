import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain/chat';
import { INTERRUPTED_TEXT, toApiMessages, toolDefinitions } from './api-messages';
import { ToolNameMap } from './tool-names';

let counter = 0;
function message(role: ChatMessage['role'], content: ChatMessage['content']): ChatMessage {
  counter += 1;
  return { id: `m${counter}`, role, createdAt: counter, content };
}
const say = (text: string): ChatMessage => message('user', [{ type: 'text', text }]);
const use = (id: string): ChatMessage['content'][number] => ({
  type: 'tool_use',
  id,
  server: 's',
  tool: 't',
  apiName: 's__t',
  input: { n: 1 },
});
const ok = (id: string): ChatMessage['content'][number] => ({
  type: 'tool_result',
  toolUseId: id,
  content: [{ type: 'text', text: `r${id}` }],
  isError: false,
});

describe('toApiMessages', () => {
  it('maps text, tool_use (by the name the model used) and tool results', () => {
    expect(
      toApiMessages([
        say('hi'),
        message('assistant', [{ type: 'text', text: 'calling' }, use('a')]),
        message('user', [ok('a')]),
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'calling' },
          { type: 'tool_use', id: 'a', name: 's__t', input: { n: 1 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'ra' }] }] },
    ]);
  });

  it('combines consecutive messages of one role, tool results first', () => {
    const messages = [
      say('one'),
      message('assistant', [use('a')]),
      message('user', [ok('a')]),
      say('after a stop'),
      say('and again'),
    ];
    expect(toApiMessages(messages).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'ra' }] },
        { type: 'text', text: 'after a stop' },
        { type: 'text', text: 'and again' },
      ],
    });
    expect(toApiMessages([say('a'), say('b')])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('answers a tool_use whose result was never saved as interrupted, and puts results in the order asked', () => {
    const crashed = toApiMessages([
      say('go'),
      message('assistant', [use('a'), use('b')]),
      message('user', [ok('b')]),
      say('hello?'),
    ]);
    expect(crashed.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', is_error: true, content: [{ type: 'text', text: INTERRUPTED_TEXT }] },
        { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'rb' }] },
        { type: 'text', text: 'hello?' },
      ],
    });
    // History ending right after the tool_use (killed mid-call).
    expect(toApiMessages([say('go'), message('assistant', [use('a')])]).at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', is_error: true, content: [{ type: 'text', text: INTERRUPTED_TEXT }] },
      ],
    });
  });

  it('drops empty text, results without their tool_use, and messages left empty', () => {
    expect(
      toApiMessages([
        message('user', [ok('zz'), { type: 'text', text: ' ' }]),
        say('real'),
        message('assistant', [{ type: 'text', text: '' }]),
      ]),
    ).toEqual([{ role: 'user', content: [{ type: 'text', text: 'real' }] }]);
  });
});

describe('toApiMessages with attachments', () => {
  it('sends each attachment as a labelled block before the text: text resources inline, images as images, binaries described', () => {
    const message: ChatMessage = {
      id: 'u1',
      role: 'user',
      createdAt: 1,
      content: [
        {
          type: 'attachment',
          attachment: {
            server: 'docs',
            label: 'README.md',
            content: {
              type: 'resource',
              resource: { uri: 'file:///r/README.md', mimeType: 'text/markdown', text: '# Hi' },
            },
          },
        },
        {
          type: 'attachment',
          attachment: { label: 'chart', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
        },
        {
          type: 'attachment',
          attachment: {
            server: 'docs',
            label: 'blob.bin',
            content: {
              type: 'resource',
              resource: { uri: 'demo://blob', mimeType: 'application/octet-stream', blob: 'AAAA' },
            },
          },
        },
        { type: 'text', text: 'Summarise these' },
      ],
    };
    const [turn] = toApiMessages([message]);
    expect(turn?.role).toBe('user');
    expect(turn?.content).toEqual([
      { type: 'text', text: "Attached from server 'docs': README.md" },
      { type: 'text', text: 'Resource file:///r/README.md (text/markdown):\n# Hi' },
      { type: 'text', text: 'Attached: chart' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: "Attached from server 'docs': blob.bin" },
      { type: 'text', text: expect.stringContaining('[Binary resource demo://blob: application/octet-stream, 3 B.') },
      { type: 'text', text: 'Summarise these' },
    ]);
  });
});

describe('toolDefinitions', () => {
  it('uses the mapped names, says where each tool comes from, and forces an object schema', () => {
    const tools = [
      {
        server: 'a b',
        tool: { name: 'x', title: 'Ex', description: 'Does x', inputSchema: { properties: { q: { type: 'string' } } } },
      },
      { server: 'c', tool: { name: 'y', inputSchema: { type: 'object' } } },
    ];
    const names = ToolNameMap.build(tools.map(({ server, tool }) => ({ server, tool: tool.name })));
    const definitions = toolDefinitions(tools, names);
    expect(definitions).toEqual([
      {
        name: names.apiName('a b', 'x'),
        description: 'Ex: Does x\n\n(MCP server "a b", tool "x")',
        input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      },
      { name: 'c__y', description: '(MCP server "c", tool "y")', input_schema: { type: 'object' } },
    ]);
  });
});
