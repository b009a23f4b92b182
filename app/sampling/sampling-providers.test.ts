import { ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingKind, PendingRequestOf } from '../../shared/domain/pending';
import type { LlmProvider, LlmResponse, LlmStreamRequest } from '../providers/llm-provider';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import type { CandidateModel } from './candidate-models';
import { fixedSamplingModels } from './candidate-models';
import { createLlmGenerate } from './llm-sampling';
import { SamplingReview } from './sampling-review';

// The sampling review over models of several providers, through the
// LlmProvider seam (a fake provider that records what it was asked).

const sonnet: CandidateModel = {
  key: 'claude-sonnet-5',
  label: 'Claude Sonnet 5',
  providerLabel: 'Anthropic',
  tier: 'balanced',
  costRank: 3,
  speedRank: 3,
  intelligenceRank: 2,
};
const gpt4o: CandidateModel = {
  key: 'openai:gpt-4o',
  label: 'gpt-4o',
  providerLabel: 'OpenAI',
  tier: 'balanced',
  costRank: 4,
  speedRank: 3,
  intelligenceRank: 2,
};
const llama: CandidateModel = {
  key: 'ollama:llama3.1:8b',
  label: 'llama3.1:8b',
  providerLabel: 'Ollama',
  tier: 'fast',
  costRank: 1,
  speedRank: 4,
  intelligenceRank: 5,
  supportsTools: false,
};
const qwen: CandidateModel = {
  key: 'ollama:qwen3:8b',
  label: 'qwen3:8b',
  providerLabel: 'Ollama',
  tier: 'fast',
  costRank: 1,
  speedRank: 4,
  intelligenceRank: 4,
  supportsTools: true,
};

const ask: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarise this' } }],
  maxTokens: 100,
  temperature: 0.2,
  modelPreferences: { hints: [{ name: 'gpt-4o' }] },
};
const withTools: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
  maxTokens: 100,
  tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
};

function next<K extends PendingKind>(pending: PendingRequests, kind: K): Promise<PendingRequestOf<K>> {
  const open = pending.list().find((r) => r.kind === kind);
  if (open !== undefined) return Promise.resolve(open as PendingRequestOf<K>);
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === kind) {
        stop();
        resolve(change.request as PendingRequestOf<K>);
      }
    });
  });
}

describe('sampling across providers, through LlmProvider', () => {
  let pending: PendingRequests;
  let logs: LogCollector;
  let asked: LlmStreamRequest[];
  let reply: Partial<LlmResponse>;

  const provider: LlmProvider = {
    stream: async (request) => {
      asked.push(request);
      return {
        content: [{ type: 'text', text: 'A summary.' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 12, outputTokens: 4 },
        ...reply,
      };
    },
  };
  const make = (models: CandidateModel[], defaultKey = 'claude-sonnet-5') =>
    new SamplingReview({
      pending,
      logs,
      models: fixedSamplingModels(models, defaultKey),
      generate: createLlmGenerate(provider),
      supportsTools: true,
    });

  beforeEach(() => {
    pending = new PendingRequests();
    logs = new LogCollector();
    asked = [];
    reply = {};
  });

  it('offers every provider’s models with their provider, explains the choice, and sends the person’s switch to that provider', async () => {
    const result = make([sonnet, gpt4o, llama]).handle('notes', ask);
    const review = await next(pending, 'sampling');
    expect(review.payload.model).toEqual({ id: 'openai:gpt-4o', label: 'gpt-4o', provider: 'OpenAI' });
    expect(review.payload.explanation).toBe('Matched the server’s hint “gpt-4o”.');
    expect(review.payload.models).toEqual([
      { id: 'claude-sonnet-5', label: 'Claude Sonnet 5', provider: 'Anthropic' },
      { id: 'openai:gpt-4o', label: 'gpt-4o', provider: 'OpenAI' },
      { id: 'ollama:llama3.1:8b', label: 'llama3.1:8b', provider: 'Ollama' },
    ]);
    pending.answer(review.id, { decision: 'approve', model: 'ollama:llama3.1:8b' });

    const answer = await next(pending, 'sampling-answer');
    expect(answer.payload.model).toEqual({ id: 'ollama:llama3.1:8b', label: 'llama3.1:8b', provider: 'Ollama' });
    expect(answer.payload.answeredBy).toBe('llama3.1:8b');
    expect(answer.payload.result.usage).toEqual({ inputTokens: 12, outputTokens: 4 });
    pending.answer(answer.id, { decision: 'approve' });

    // The server hears the model's own name, not Berth's key for it.
    await expect(result).resolves.toEqual({
      model: 'llama3.1:8b',
      role: 'assistant',
      content: { type: 'text', text: 'A summary.' },
      stopReason: 'endTurn',
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ model: 'ollama:llama3.1:8b', maxTokens: 100, temperature: 0.2 });
    expect(logs.texts('notes', 'host')).toContain(
      'sampling answered with ollama:llama3.1:8b (the provider says llama3.1:8b answered) after review',
    );
  });

  it('records the model the provider says answered when it differs from the one asked for', async () => {
    reply = { model: 'gpt-4o-2024-08-06' };
    const result = make([sonnet, gpt4o]).handle('notes', ask);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    const answer = await next(pending, 'sampling-answer');
    expect(answer.payload.answeredBy).toBe('gpt-4o-2024-08-06');
    pending.answer(answer.id, { decision: 'approve' });
    await expect(result).resolves.toMatchObject({ model: 'gpt-4o-2024-08-06' });
  });

  it('a request with tools only offers models that take tools, and says when the default cannot', async () => {
    const result = make([llama, qwen, gpt4o], 'ollama:llama3.1:8b').handle('weather', withTools);
    const review = await next(pending, 'sampling');
    expect(review.payload.models.map((m) => m.id)).toEqual(['ollama:qwen3:8b', 'openai:gpt-4o']);
    expect(review.payload.model.id).toBe('ollama:qwen3:8b');
    expect(review.payload.explanation).toBe(
      'No preferences from the server: your default model. (Your default model cannot use tools, which this request offers: qwen3:8b stands in for it.)',
    );
    expect(() => pending.answer(review.id, { decision: 'approve', model: 'ollama:llama3.1:8b' })).toThrow(
      /not one of the models offered for this request/,
    );
    pending.answer(review.id, { decision: 'reject' });
    await expect(result).rejects.toMatchObject({ code: -1 });
    expect(asked).toEqual([]);
  });

  it('a request with an image prefers models that take images, and says when the default does not', async () => {
    const textOnly: CandidateModel = { ...sonnet, key: 'claude-text', label: 'Claude Text', takesImages: false };
    const picture: CreateMessageRequestParams = {
      messages: [{ role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } }],
      maxTokens: 100,
    };
    const result = make([textOnly, llama, gpt4o], 'claude-text').handle('vision', picture);
    const review = await next(pending, 'sampling');
    expect(review.payload.models.map((m) => m.id)).toEqual(['ollama:llama3.1:8b', 'openai:gpt-4o']);
    expect(review.payload.explanation).toBe(
      'No preferences from the server: your default model. (Your default model does not take images, which this request carries: llama3.1:8b stands in for it.)',
    );
    pending.answer(review.id, { decision: 'reject' });
    await expect(result).rejects.toMatchObject({ code: -1 });
    // With no model that takes images, all stay offered (the call then says why it fails).
    const all = make([textOnly], 'claude-text').handle('vision', picture);
    const again = await next(pending, 'sampling');
    expect(again.payload.models.map((m) => m.id)).toEqual(['claude-text']);
    pending.answer(again.id, { decision: 'reject' });
    await expect(all).rejects.toMatchObject({ code: -1 });
  });

  it('a default model that cannot be used now (its provider has no key, so it is not a candidate) gives way to a usable one, and says so', async () => {
    const result = make([qwen, gpt4o]).handle('local-only', { messages: ask.messages, maxTokens: 100 });
    const review = await next(pending, 'sampling');
    expect(review.payload.model.id).toBe('ollama:qwen3:8b');
    expect(review.payload.explanation).toBe(
      'No preferences from the server: your default model. (Your default model claude-sonnet-5 cannot be used now, its provider is not set up: qwen3:8b stands in for it.)',
    );
    pending.answer(review.id, { decision: 'approve' });
    const answer = await next(pending, 'sampling-answer');
    pending.answer(answer.id, { decision: 'approve' });
    await expect(result).resolves.toMatchObject({ role: 'assistant' });
    expect(asked.map((request) => request.model)).toEqual(['ollama:qwen3:8b']);
  });

  it('refuses a request with tools when no model takes tools, before asking the person', async () => {
    await expect(make([llama]).handle('weather', withTools)).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('none of the models in Berth can use tools'),
    });
    expect(pending.list()).toEqual([]);
  });
});
