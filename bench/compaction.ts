import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { ConversationStore } from '../app/chat/conversation-store';
import { ContextKeeper } from '../app/chat/context/context-keeper';
import { messagesAfterCut } from '../app/chat/context/context-cut';
import { toApiMessages } from '../app/chat/api-messages';
import { AnthropicProvider } from '../app/providers/llm-provider';
import type { LlmProvider, LlmStreamRequest } from '../app/providers/llm-provider';
import { TokenEstimator } from '../app/providers/token-estimate';
import type { ChatMessage, Conversation } from '../shared/domain/chat';
import type { Measure } from './scale-table';

// Compacting a conversation at 90% of a 200k window (ContextKeeper.fit, forced as Compact and retry
// does): Berth's part is the whole time less the summary requests' round trips to the fake Messages
// API, which answers at once. Measured on the real store, estimator, planner and compactor.

export const COMPACTION_WINDOW = 200_000;
const MODEL = 'claude-sonnet-5';
const API_KEY = 'sk-ant-bench-compaction';

export const COMPACTION_MEASURES: Measure[] = [
  { key: 'hostMs', label: "Berth's part of compacting (ms)", target: '', digits: 1 },
  { key: 'totalMs', label: 'the whole compaction, summary requests included (ms)', target: '', digits: 1 },
  { key: 'summaryRequests', label: 'summary requests', target: '', digits: 0 },
  { key: 'tokensBefore', label: 'request before (tokens, est.)', target: '', digits: 0 },
  { key: 'tokensAfter', label: 'request after (tokens, est.)', target: '', digits: 0 },
];

/** A turn: the person asks, the model answers with a tool call and its result, then text. */
function turn(index: number): ChatMessage[] {
  const filler = (words: number) =>
    Array.from({ length: words }, (_, at) => `t${index}w${at} about the context window`).join(' ');
  const id = `toolu_bench_${index}`;
  return [
    { id: randomUUID(), role: 'user', createdAt: index, content: [{ type: 'text', text: filler(40) }] },
    {
      id: randomUUID(),
      role: 'assistant',
      createdAt: index,
      content: [
        { type: 'tool_use', id, server: 'files', tool: 'read', apiName: 'files__read', input: { path: `/f${index}` } },
      ],
    },
    {
      id: randomUUID(),
      role: 'user',
      createdAt: index,
      content: [{ type: 'tool_result', toolUseId: id, isError: false, content: [{ type: 'text', text: filler(200) }] }],
    },
    { id: randomUUID(), role: 'assistant', createdAt: index, content: [{ type: 'text', text: filler(120) }] },
  ];
}

export async function compactionRound(): Promise<Record<string, number>> {
  const fake = await FakeAnthropic.start({ apiKey: API_KEY, fallback: { text: 'SUMMARY: what was read and said.' } });
  const dir = await mkdtemp(join(tmpdir(), 'berth-bench-compaction-'));
  try {
    const store = await ConversationStore.open({ dir });
    const tokens = new TokenEstimator();
    const build = (conversation: Conversation): LlmStreamRequest => ({
      model: MODEL,
      messages: toApiMessages(messagesAfterCut(conversation)),
      maxTokens: 4_096,
    });
    let conversation = await store.create({ model: MODEL });
    const messages: ChatMessage[] = [];
    for (
      let index = 0;
      tokens.request(MODEL, build({ ...conversation, messages })) < 0.9 * COMPACTION_WINDOW;
      index += 1
    )
      messages.push(...turn(index));
    conversation = await store.replaceMessages(conversation.id, messages);
    let providerMs = 0;
    let summaryRequests = 0;
    const inner = new AnthropicProvider({ apiKey: API_KEY, baseURL: fake.url, maxRetries: 0 });
    const timed: LlmProvider = {
      stream: async (request) => {
        const start = performance.now();
        try {
          return await inner.stream(request);
        } finally {
          providerMs += performance.now() - start;
          summaryRequests += 1;
        }
      },
    };
    const keeper = new ContextKeeper({
      store,
      provider: timed,
      tokens,
      contextWindow: () => COMPACTION_WINDOW,
      modelName: (model) => model,
    });
    const start = performance.now();
    const { conversation: compacted } = await keeper.fit({ conversation, build, force: true, notify: () => undefined });
    const totalMs = performance.now() - start;
    await store.flushIndex();
    const cut = compacted.contextCut;
    if (cut === undefined) throw new Error('the conversation was not compacted');
    return {
      hostMs: totalMs - providerMs,
      totalMs,
      summaryRequests,
      tokensBefore: cut.tokensBefore,
      tokensAfter: cut.tokensAfter,
    };
  } finally {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}
