import { describe, expect, it } from 'vitest';
import { conversationError } from './conversation-errors';
import { providerError } from './provider-errors';

describe("providers' and conversations' failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [
      providerError('provider-errors.no-api-key', {}),
      'Add your Anthropic API key in Settings (or set ANTHROPIC_API_KEY) to chat with Claude.',
    ],
    [
      providerError('provider-errors.missing-key', { provider: 'Ollama' }),
      'Add the API key of Ollama in Settings (Providers) to use its models.',
    ],
    [
      providerError('provider-errors.list-models-failed', { detail: 'HTTP 500' }),
      'Could not list the models: HTTP 500',
    ],
    [conversationError('conversation-errors.not-found', { id: 'c-1' }), 'No conversation with id c-1'],
    [conversationError('conversation-errors.title-too-long', { max: 200 }), 'Keep the title under 200 characters'],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
  });

  it('sends the facts, never the words', () => {
    expect(providerError('provider-errors.missing-key', { provider: 'Ollama' }).hostMessage).toEqual({
      code: 'provider-errors.missing-key',
      params: { provider: 'Ollama' },
    });
  });
});
