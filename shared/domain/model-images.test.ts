import { describe, expect, it } from 'vitest';
import { guessTakesImages, takesImages } from './model-images';

describe('takes images: the guess from a model id', () => {
  it.each([
    'claude-sonnet-5',
    'claude-3-haiku-20240307',
    'gpt-4o',
    'gpt-4o-mini',
    'openai/gpt-4.1',
    'gpt-5-mini',
    'o4-mini',
    'gemini-2.5-pro',
    'google/gemma-3-27b-it',
    'llava:13b',
    'llama3.2-vision:11b',
    'qwen2.5vl:7b',
    'Qwen/Qwen3-VL-8B-Instruct',
    'minicpm-v',
    'pixtral-12b',
    'meta-llama/llama-4-scout',
  ])('%s takes images', (id) => {
    expect(guessTakesImages(id)).toBe(true);
  });

  it.each([
    'claude-2.1',
    'claude-instant-1.2',
    'gpt-3.5-turbo',
    'gpt-4o-audio-preview',
    'gpt-4o-mini-tts',
    'text-embedding-3-small',
    'o3-mini',
    'llama3.1:8b',
    'qwen3:4b',
    'mistral',
    'my-custom-model',
  ])('%s does not (unknown names included)', (id) => {
    expect(guessTakesImages(id)).toBe(false);
  });

  it('what the person or the provider said wins over the guess', () => {
    expect(takesImages({ id: 'claude-sonnet-5', takesImages: false })).toBe(false);
    expect(takesImages({ id: 'my-custom-model', takesImages: true })).toBe(true);
    expect(takesImages({ id: 'llava' })).toBe(true);
  });
});
