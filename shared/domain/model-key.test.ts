import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PROVIDER_ID, modelKey, splitModelKey } from './model-key';

describe('model keys', () => {
  it('keeps Anthropic ids plain, so conversations saved before providers existed still resolve', () => {
    expect(modelKey(ANTHROPIC_PROVIDER_ID, 'claude-sonnet-5')).toBe('claude-sonnet-5');
    expect(splitModelKey('claude-sonnet-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-5' });
  });

  it('splits at the first colon only, whatever the model id holds', () => {
    expect(splitModelKey(modelKey('ollama', 'llama3.1:8b'))).toEqual({ provider: 'ollama', model: 'llama3.1:8b' });
    expect(splitModelKey(modelKey('openrouter', 'openai/gpt-4o'))).toEqual({
      provider: 'openrouter',
      model: 'openai/gpt-4o',
    });
  });

  it('reads a key whose prefix cannot be a provider id as an Anthropic model id', () => {
    expect(splitModelKey('Weird Model:1')).toEqual({ provider: 'anthropic', model: 'Weird Model:1' });
    expect(splitModelKey(':x')).toEqual({ provider: 'anthropic', model: ':x' });
  });
});
