import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ChatCompletionsReply, toLlmUsage } from './openai-translate-reply';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): ChatCompletionChunk =>
  ({
    id: 'x',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }) as ChatCompletionChunk;

function read(deltas: Array<Record<string, unknown>>) {
  const streamed = { thinking: '', text: '' };
  const reply = new ChatCompletionsReply({
    onThinking: (delta) => (streamed.thinking += delta),
    onText: (delta) => (streamed.text += delta),
  });
  for (const delta of deltas) reply.add(chunk(delta));
  reply.add(chunk({}, 'stop'));
  return { streamed, response: reply.finish() };
}

describe('ChatCompletionsReply: reasoning', () => {
  it('reads reasoning_content (DeepSeek, vLLM, LM Studio) and reasoning (Ollama, OpenRouter) as thinking', () => {
    for (const field of ['reasoning_content', 'reasoning']) {
      const { streamed, response } = read([
        { role: 'assistant', content: '' },
        { [field]: 'Think ', content: null },
        { [field]: 'hard.' },
        { content: 'Answer.' },
      ]);
      expect(streamed).toEqual({ thinking: 'Think hard.', text: 'Answer.' });
      expect(response.content).toEqual([
        { type: 'thinking', thinking: 'Think hard.' },
        { type: 'text', text: 'Answer.' },
      ]);
    }
  });

  it('reads a leading <think> in the content as thinking, cut anywhere', () => {
    const { streamed, response } = read([
      { content: '<thi' },
      { content: 'nk>plan</th' },
      { content: 'ink>\n\nDone.' },
    ]);
    expect(streamed).toEqual({ thinking: 'plan', text: 'Done.' });
    expect(response.content).toEqual([
      { type: 'thinking', thinking: 'plan' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('reports reasoning tokens from completion_tokens_details', () => {
    expect(
      toLlmUsage({
        prompt_tokens: 10,
        completion_tokens: 300,
        total_tokens: 310,
        completion_tokens_details: { reasoning_tokens: 256 },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 300, reasoningTokens: 256 });
  });
});
