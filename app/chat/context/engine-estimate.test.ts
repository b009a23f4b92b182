import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../e2e/fake-llm/fake-anthropic';
import { FakeOpenAi } from '../../../e2e/fake-llm/fake-openai';
import { AnthropicProvider } from '../../providers/llm-provider';
import { OpenAiCompatibleClient } from '../../providers/openai-compatible';
import { ChatEngine } from '../chat-engine';
import { promptTokens } from '../../../shared/domain/chat-usage';
import type { AvailableTool } from '../api-messages';
import { tokensOf } from '../tool-offer';
import { ChatEventLog, ScriptedGate, closeChatStore, openChatStore } from '../chat-test-support';
import type { ConversationStore } from '../conversation-store';
import { TokenEstimator, partsTotal, rawRequestParts } from '../../providers/token-estimate';
import type { LlmProvider, LlmStreamRequest } from '../../providers/llm-provider';

/** A tool-heavy conversation's tools (the issue measured 42), with real-looking descriptions and schemas. */
const tools: AvailableTool[] = Array.from({ length: 40 }, (_, index) => ({
  server: 'files',
  tool: {
    name: `tool_${index}`,
    description: `Reads the file at the given path (number ${index}), returning its text; fails when the path is outside the roots.`,
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Absolute path of the file' }, limit: { type: 'integer' } },
      required: ['path'],
    },
  },
}));

const prose = (words: number) =>
  Array.from({ length: words }, (_, index) => ['the', 'context', 'window', 'fills', 'slowly,'][index % 5]).join(' ');

/** The real provider; before each request the engine's estimate of it is kept, and the request. */
function recording(
  provider: LlmProvider,
  estimate: (request: LlmStreamRequest) => number,
): { provider: LlmProvider; estimates: number[] } {
  const estimates: number[] = [];
  return {
    estimates,
    provider: {
      stream: (request) => {
        estimates.push(estimate(request));
        return provider.stream(request);
      },
    },
  };
}

describe('the engine’s estimate agrees with the provider after one request', () => {
  let world: { dir: string; store: ConversationStore; log: ChatEventLog };
  beforeEach(async () => {
    world = await openChatStore('berth-token-estimate-');
  });
  afterEach(async () => {
    await closeChatStore(world);
  });

  /** Two turns: how far the engine's estimate of the second request was from the provider's count (a share), and the bare rule of thumb's. */
  async function secondRequest(inner: LlmProvider, model: string) {
    // The estimator is the engine's; the engine is built with the recording provider, so it is read when asked.
    const tokens = new TokenEstimator();
    let conversationId = '';
    const { provider, estimates } = recording(inner, (request) => tokens.request(model, request, conversationId));
    const { provider: plainProvider, estimates: plain } = recording(provider, (request) =>
      partsTotal(rawRequestParts(request)),
    );
    const chat = new ChatEngine({
      provider: plainProvider,
      tokens,
      store: world.store,
      tools: () => tools,
      gate: new ScriptedGate(),
      runner: { callTool: async () => ({ content: [{ type: 'text', text: 'done' }] }) },
      onEvent: world.log.onEvent,
      system: () => 'You are Berth’s assistant. Answer briefly and cite the files you read.',
    });
    const conversation = await world.store.create({ model });
    conversationId = conversation.id;
    await (
      await chat.send(conversation.id, prose(60))
    ).done;
    // The tool budget (tool search's threshold, the load warning, the usage line) counts with the same correction.
    const offer = chat.toolsFor(await world.store.get(conversation.id));
    expect(chat.tokens.factor(model)).not.toBeCloseTo(1);
    expect(offer.toolTokens).toBe(Math.ceil(tokensOf(offer.definitions) * chat.tokens.factor(model)));
    await (
      await chat.send(conversation.id, prose(40))
    ).done;
    const replies = (await world.store.get(conversation.id)).messages.filter((m) => m.role === 'assistant');
    const reported = promptTokens(replies[1]?.usage ?? { inputTokens: 0, outputTokens: 0 });
    expect(reported).toBeGreaterThan(0);
    const off = (estimate: number | undefined) => Math.abs((estimate ?? 0) - reported) / reported;
    return { corrected: off(estimates[1]), uncorrected: off(plain[1]) };
  }

  it('Anthropic: within 5% of the input tokens the fake reports for the next request (and not without the correction)', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'k', fallback: { text: prose(120) } });
    try {
      const off = await secondRequest(
        new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 }),
        'claude-sonnet-5',
      );
      expect(off.corrected).toBeLessThan(0.05);
      expect(off.uncorrected).toBeGreaterThan(0.05);
    } finally {
      await fake.close();
    }
  });

  it('OpenAI-compatible: the same', async () => {
    const fake = await FakeOpenAi.start({ fallback: { text: prose(120) } });
    try {
      const off = await secondRequest(new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 }), 'local:m');
      expect(off.corrected).toBeLessThan(0.05);
      expect(off.uncorrected).toBeGreaterThan(0.05);
    } finally {
      await fake.close();
    }
  });
});
