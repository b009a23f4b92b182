import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../shared/domain/chat';
import { DEFAULT_TOOL_SEARCH_THRESHOLDS } from '../../shared/domain/tool-search';
import { TokenEstimator } from '../providers/token-estimate';
import { offeredTool } from './chat-test-support';
import { HostToolRegistry } from './host-tools/host-tool-registry';
import { ToolSearch } from './tool-search/tool-search-provider';
import { RequestBuilder, type RequestBuilderOptions } from './request-builder';

const user = (id: string, text: string): ChatMessage => ({
  id,
  role: 'user',
  createdAt: 1,
  content: [{ type: 'text', text }],
});
const reply = (id: string, text: string): ChatMessage => ({
  id,
  role: 'assistant',
  createdAt: 2,
  model: 'm',
  content: [{ type: 'text', text }],
});

function conversation(messages: ChatMessage[], extra: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    title: 't',
    createdAt: 1,
    updatedAt: 1,
    model: 'm',
    messages,
    disabledServers: [],
    disabledTools: [],
    ...extra,
  };
}

function builder(options: Partial<RequestBuilderOptions> = {}): RequestBuilder {
  return new RequestBuilder({
    tools: () => [offeredTool('files', 'read'), offeredTool('web', 'fetch')],
    system: (servers) => `servers: ${servers.join(', ')}`,
    tokens: new TokenEstimator(),
    maxTokens: 1234,
    limits: { countAt: 40, shareAt: 0.5 },
    ...options,
  });
}

describe('RequestBuilder', () => {
  it('builds one request: system for the offered servers, the history, tools, max tokens, reasoning and the stream', () => {
    const requests = builder({ reasoning: () => ({ effort: 'high', support: 'adaptive' }) });
    const chat = conversation([user('u1', 'hello'), reply('a1', 'hi'), user('u2', 'again')]);
    const offer = requests.toolsFor(chat);
    const signal = new AbortController().signal;
    const onText = (): void => undefined;
    const { request } = requests.build(chat, offer, requests.system(offer, chat), { signal, onText });
    expect(request.model).toBe('m');
    expect(request.system).toBe('servers: files, web');
    expect(request.tools?.map((tool) => tool.name)).toEqual(offer.definitions.map((tool) => tool.name));
    expect(request.tools).toHaveLength(2);
    expect(request.maxTokens).toBe(1234);
    expect(request.reasoning).toEqual({ effort: 'high', support: 'adaptive' });
    expect(request.signal).toBe(signal);
    expect(request.onText).toBe(onText);
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.uncachedTailBlocks).toBeUndefined();
    expect(request.contextManagement).toBeUndefined();
  });

  it('with tool search on, the system prompt still carries every enabled server, loaded or not', () => {
    const hostTools = new HostToolRegistry([
      new ToolSearch({
        store: { changeLoadedTools: () => Promise.reject(new Error('not in this test')) },
        thresholds: () => DEFAULT_TOOL_SEARCH_THRESHOLDS,
      }),
    ]);
    const requests = builder({ hostTools });
    const chat = conversation([user('u1', 'hello')], { toolSearch: 'on', loadedTools: ['web/fetch'] });
    const offer = requests.toolsFor(chat);
    expect(offer.offered.map(({ tool }) => tool.name)).toEqual(['fetch']);
    expect(requests.system(offer, chat)).toBe('servers: files, web');
    const none = requests.toolsFor(conversation([user('u1', 'hello')], { toolSearch: 'on' }));
    expect(none.offered).toEqual([]);
    expect(requests.system(none, chat)).toBe('servers: files, web');
  });

  it("sends only the messages after the context's cut, with its summary first", () => {
    const chat = conversation([user('u1', 'old'), reply('a1', 'old answer'), user('u2', 'new')], {
      contextCut: {
        kind: 'compact',
        throughMessageId: 'a1',
        summary: 'We talked about old things.',
        createdAt: 1,
        model: 'm',
        messageCount: 2,
        tokensBefore: 100,
        tokensAfter: 10,
      },
    });
    const requests = builder();
    const offer = requests.toolsFor(chat);
    const { request } = requests.build(chat, offer, undefined, {});
    expect(request.system).toBeUndefined();
    expect(request.messages).toHaveLength(1);
    const text = JSON.stringify(request.messages[0]);
    expect(text).toContain('We talked about old things.');
    expect(text).toContain('new');
    expect(text).not.toContain('old answer');
  });

  it("adds an app's turn context to this request only, outside the cache's mark; the fill meter leaves it out", () => {
    const requests = builder({ turnContext: (id) => (id === 'c1' ? 'The map shows Paris.' : undefined) });
    const chat = conversation([user('u1', 'where?')]);
    const offer = requests.toolsFor(chat);
    const { request } = requests.build(chat, offer, requests.system(offer, chat), {});
    expect(request.uncachedTailBlocks).toBe(1);
    expect(JSON.stringify(request.messages.at(-1))).toContain('The map shows Paris.');
    const measured = requests.measured(chat, offer);
    expect(JSON.stringify(measured.messages)).not.toContain('The map shows Paris.');
    expect(measured.system).toBe(request.system);
    expect(measured.tools).toBe(request.tools);
  });

  it("asks for the provider's context management until the provider refuses it for the conversation", () => {
    const requests = builder({ contextManagement: () => true, contextWindow: () => 200_000 });
    const chat = conversation([user('u1', 'hello')]);
    const offer = requests.toolsFor(chat);
    expect(requests.build(chat, offer, undefined, {}).request.contextManagement).toEqual({
      triggerTokens: Math.floor((200_000 - 1234) * 0.75),
    });
    expect(requests.mayManageContext('c1')).toBe(true);
    requests.stopManagingContext('c1');
    expect(requests.mayManageContext('c1')).toBe(false);
    expect(requests.build(chat, offer, undefined, {}).request.contextManagement).toBeUndefined();
    expect(requests.apiContext(conversation([user('u1', 'x')], { id: 'c2' }))).toBeDefined();
  });

  it("cuts a big tool result to the server's limit and counts what it saved", () => {
    const requests = builder({ resultLimit: (server) => (server === 'files' ? 50 : 10_000) });
    const big = 'line of a long file\n'.repeat(2_000);
    const chat = conversation([
      user('u1', 'read it'),
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 2,
        content: [{ type: 'tool_use', id: 't1', server: 'files', tool: 'read', apiName: 'files__read', input: {} }],
      },
      {
        id: 'r1',
        role: 'user',
        createdAt: 3,
        content: [{ type: 'tool_result', toolUseId: 't1', isError: false, content: [{ type: 'text', text: big }] }],
      },
    ]);
    const offer = requests.toolsFor(chat);
    const { request, capping } = requests.build(chat, offer, undefined, {});
    expect(JSON.stringify(request.messages).length).toBeLessThan(big.length / 4);
    expect(capping.savedTokens).toBeGreaterThan(0);
    expect(requests.resultLimit('files', 'm')).toBe(50);
  });

  it("puts the person's system prompt before the servers' instructions, and the conversation's temperature and max tokens", () => {
    const requests = builder();
    const chat = conversation([user('u1', 'hello')], {
      systemPrompt: 'Answer like a pirate.',
      temperature: 0.2,
      maxTokens: 300,
    });
    const offer = requests.toolsFor(chat);
    const system = requests.system(offer, chat);
    expect(system).toBe('Answer like a pirate.\n\nservers: files, web');
    const { request } = requests.build(chat, offer, system, {});
    expect(request).toMatchObject({ system, temperature: 0.2, maxTokens: 300 });
    // The fill meter measures the same prompt.
    expect(requests.measured(chat, offer).system).toBe(system);
  });

  it("sends the person's prompt alone when no server gives instructions, and none of it when it is blank", () => {
    const requests = builder({ system: () => undefined });
    const own = conversation([user('u1', 'hello')], { systemPrompt: 'Be brief.' });
    expect(requests.system(requests.toolsFor(own), own)).toBe('Be brief.');
    const blank = conversation([user('u1', 'hello')], { systemPrompt: '  ' });
    expect(requests.system(requests.toolsFor(blank), blank)).toBeUndefined();
    const { request } = requests.build(blank, requests.toolsFor(blank), undefined, {});
    expect(request).not.toHaveProperty('temperature');
    expect(request.maxTokens).toBe(1234);
  });
});
