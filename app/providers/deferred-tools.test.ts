import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { AnthropicProvider } from './llm-provider';
import { loadedToolText, refusesDeferral, visibleTools, withoutDeferral } from './deferred-tools';

const schema = { type: 'object' as const };
const search: Tool = { name: 'search_tools', input_schema: schema };
const deferred = (name: string): Tool => ({ name, input_schema: schema, defer_loading: true });
const TOOLS = [search, deferred('read_file'), deferred('write_file'), deferred('list_dir')];

/** A turn whose load answered with references to `names`. */
const loading = (id: string, names: string[]): MessageParam[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id, name: 'load_tools', input: { names } }] },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: id,
        content: [
          { type: 'text', text: `Loaded ${names.join(', ')}.` },
          ...names.map((name) => ({ type: 'tool_reference' as const, tool_name: name })),
        ],
      },
    ],
  },
];
const MESSAGES: MessageParam[] = [
  { role: 'user', content: 'Tidy the folder' },
  ...loading('t1', ['write_file']),
  ...loading('t2', ['read_file', 'write_file']),
];

describe('deferred tools', () => {
  it('counts as read the tools not deferred and the deferred ones a tool result loaded', () => {
    expect(visibleTools(TOOLS, MESSAGES).map((tool) => tool.name)).toEqual(['search_tools', 'read_file', 'write_file']);
    expect(visibleTools(TOOLS, [{ role: 'user', content: 'hi' }])).toEqual([search]);
    expect(visibleTools(undefined, MESSAGES)).toEqual([]);
  });

  it('lists the loaded tools after the others, in the order loaded, for an endpoint without deferred loading', () => {
    const request = { model: 'm', tools: TOOLS, messages: MESSAGES };
    const listed = withoutDeferral(request);
    expect(listed.tools).toEqual([
      search,
      { name: 'write_file', input_schema: schema },
      { name: 'read_file', input_schema: schema },
    ]);
    expect(JSON.stringify(listed.messages)).not.toContain('tool_reference');
    expect(listed.messages[4]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't2',
          content: [
            { type: 'text', text: 'Loaded read_file, write_file.' },
            { type: 'text', text: loadedToolText('read_file') },
            { type: 'text', text: loadedToolText('write_file') },
          ],
        },
      ],
    });
    // Nothing deferred: the request is left as it was.
    const plain = { model: 'm', tools: [search], messages: MESSAGES };
    expect(withoutDeferral(plain)).toBe(plain);
  });

  it('tells a proxy that refuses deferred tools from the API refusing a reference', () => {
    expect(refusesDeferral('tools.2.defer_loading: Extra inputs are not permitted')).toBe(true);
    expect(refusesDeferral('messages.2.content.0.content.1.type: unknown type tool_reference')).toBe(true);
    expect(refusesDeferral("Tool reference 'x' not found in available tools")).toBe(false);
    expect(refusesDeferral('prompt is too long')).toBe(false);
  });
});

describe('an endpoint that refuses deferred tools', () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('is asked again with the loaded tools listed, and from then on: the person never sees the refusal', async () => {
    fake = await FakeAnthropic.start({ refuseDeferredTools: true, fallback: { text: 'fine' } });
    const provider = new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
    const ask = () =>
      provider.stream({
        model: 'm',
        maxTokens: 10,
        tools: TOOLS,
        messages: [...MESSAGES, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'go on' }],
      });
    expect((await ask()).content).toEqual([{ type: 'text', text: 'fine' }]);
    expect((await ask()).content).toEqual([{ type: 'text', text: 'fine' }]);
    const names = fake.requests.map((request) => request.body?.tools?.map((tool) => tool.name));
    expect(names).toEqual([
      ['search_tools', 'read_file', 'write_file', 'list_dir'],
      ['search_tools', 'write_file', 'read_file'],
      ['search_tools', 'write_file', 'read_file'],
    ]);
  });
});
