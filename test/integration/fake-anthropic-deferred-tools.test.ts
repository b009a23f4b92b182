import Anthropic, { BadRequestError, InternalServerError } from '@anthropic-ai/sdk';
import { ToolReferenceUnresolvedError } from '@anthropic-ai/sdk/resources/messages';
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';

// The fake Messages API's deferred tools, read by the real SDK: a deferred tool is no part of the
// prompt (not billed, not cached, not callable) until a tool_result's tool_reference loads it; the
// API's refusals come with its words and error codes.

const MODEL = 'claude-test-1';
const schema = { type: 'object' as const, properties: { path: { type: 'string' } } };
const long = (name: string): string => `${name} reads a file from the berth log and says what is in it. `.repeat(80);
const search: Tool = { name: 'search_tools', description: long('search'), input_schema: schema };
const deferred = (name: string): Tool => ({
  name,
  description: long(name),
  input_schema: schema,
  defer_loading: true,
});
const TOOLS = [search, deferred('read_file'), deferred('write_file')];

/** A conversation whose search answered with a reference to `name`. */
const loaded = (name: string): MessageParam[] => [
  { role: 'user', content: 'Read notes.txt' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'search_tools', input: {} }] },
  {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: name }] }],
  },
];

describe('fake Anthropic: deferred tools', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;
  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-test' });
    client = new Anthropic({ apiKey: 'sk-test', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  const ask = (messages: MessageParam[], tools: Tool[] = TOOLS, extra: Record<string, unknown> = {}) =>
    client.messages.create({ model: MODEL, max_tokens: 50, messages, tools, ...extra });

  it('bills a deferred tool only once a reference loaded it, and keeps the prompt before the load cached', async () => {
    fake.script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const alone = await ask([{ role: 'user', content: 'Read notes.txt' }], [search]);
    const listed = await ask([{ role: 'user', content: 'Read notes.txt' }], TOOLS, {
      cache_control: { type: 'ephemeral' },
    });
    // Two deferred tools listed, none loaded: the same prompt as without them.
    expect(listed.usage.input_tokens + (listed.usage.cache_creation_input_tokens ?? 0)).toBe(alone.usage.input_tokens);
    const after = await ask(loaded('read_file'), TOOLS, { cache_control: { type: 'ephemeral' } });
    // The loaded tool's definition is billed where it was referenced, after the cached prefix.
    expect(after.usage.cache_read_input_tokens).toBe(listed.usage.cache_creation_input_tokens);
    const added = (after.usage.cache_creation_input_tokens ?? 0) + after.usage.input_tokens;
    expect(added).toBeGreaterThan(long('read_file').length / 8);
    expect(added).toBeLessThan(long('read_file').length / 2);
  });

  it('refuses a reference to a tool it does not have deferred, with the API’s words and error code', async () => {
    fake.script([{ text: 'never sent' }]);
    const unknown = ask(loaded('no_such_tool'));
    await expect(unknown).rejects.toBeInstanceOf(ToolReferenceUnresolvedError);
    await expect(unknown).rejects.toThrow("Tool reference 'no_such_tool' not found in available tools");
    // A tool already in the prompt is not deferred: it cannot be loaded again.
    await expect(ask(loaded('search_tools'))).rejects.toBeInstanceOf(ToolReferenceUnresolvedError);
    const marked = ask(
      [{ role: 'user', content: 'hi' }],
      [search, { ...deferred('read_file'), cache_control: { type: 'ephemeral' } }],
    );
    await expect(marked).rejects.toBeInstanceOf(BadRequestError);
    await expect(marked).rejects.toThrow(/cannot have both defer_loading=true and cache_control set/);
    // Refused before the model sees them: no scripted turn was used up.
    expect(fake.pending).toBe(1);
  });

  it('lets the model call a deferred tool only once it is loaded: a script that calls it earlier fails loudly', async () => {
    fake.script([
      { toolUses: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
      { toolUses: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
    ]);
    const early = ask([{ role: 'user', content: 'Read notes.txt' }]);
    await expect(early).rejects.toBeInstanceOf(InternalServerError);
    await expect(early).rejects.toThrow(/read_file .*deferred and no tool_reference has loaded it/);
    const later = await ask(loaded('read_file'));
    expect(later.content).toMatchObject([{ type: 'tool_use', name: 'read_file', input: { path: 'notes.txt' } }]);
  });
});
