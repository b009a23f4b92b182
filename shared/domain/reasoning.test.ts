import { describe, expect, it } from 'vitest';
import { offersReasoning, reasoningRequest, reasoningSupport, thoughtFor } from './reasoning';

describe('reasoning', () => {
  it('knows how each Claude generation thinks; a Claude newer than the table thinks adaptively', () => {
    expect(reasoningSupport('claude-sonnet-5', true)).toBe('adaptive');
    expect(reasoningSupport('claude-opus-4-6', true)).toBe('adaptive');
    expect(reasoningSupport('claude-fable-5-1', true)).toBe('adaptive');
    expect(reasoningSupport('claude-sonnet-4-5-20250929', true)).toBe('budget');
    expect(reasoningSupport('claude-haiku-4-5', true)).toBe('budget');
    expect(reasoningSupport('claude-opus-4-1-20250805', true)).toBe('budget');
    expect(reasoningSupport('claude-3-7-sonnet-latest', true)).toBe('budget');
    expect(reasoningSupport('claude-3-haiku-20240307', true)).toBe('none');
    expect(reasoningSupport('claude-nova-1', true)).toBe('adaptive');
  });

  it('knows OpenAI-compatible reasoners by name, and has no word on the rest', () => {
    for (const id of ['o3-mini', 'o4-mini', 'gpt-5', 'openai/gpt-oss-20b', 'deepseek-r1:14b', 'qwen3:8b', 'qwq'])
      expect(reasoningSupport(id, false), id).toBe('effort');
    for (const id of ['gpt-4o', 'llama3.2', 'mistral-small']) expect(reasoningSupport(id, false), id).toBe('unknown');
  });

  it('offers the control only for models known to reason, and asks only when on', () => {
    expect(['adaptive', 'budget', 'effort'].every((s) => offersReasoning(s as 'adaptive'))).toBe(true);
    expect(offersReasoning('none')).toBe(false);
    expect(offersReasoning('unknown')).toBe(false);
    expect(offersReasoning(undefined)).toBe(false);
    expect(reasoningRequest('off', 'adaptive')).toBeUndefined();
    expect(reasoningRequest('high', 'unknown')).toBeUndefined();
    expect(reasoningRequest('low', 'budget')).toEqual({ effort: 'low', support: 'budget' });
  });

  it('titles a thought by its duration', () => {
    expect(thoughtFor(200)).toBe('Thought for 1 s');
    expect(thoughtFor(12_400)).toBe('Thought for 12 s');
    expect(thoughtFor(90_000)).toBe('Thought for 90 s');
    expect(thoughtFor(125_000)).toBe('Thought for 2 min 5 s');
    expect(thoughtFor(180_000)).toBe('Thought for 3 min');
  });
});
