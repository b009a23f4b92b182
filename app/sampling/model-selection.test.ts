import { describe, expect, it } from 'vitest';
import { chooseModel } from './model-selection';
import type { ConfiguredModel } from '../settings/model-table';

const haiku: ConfiguredModel = { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 3 };
const sonnet: ConfiguredModel = { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', tier: 'balanced', costRank: 2, speedRank: 2, intelligenceRank: 2 };
const opus: ConfiguredModel = { id: 'claude-opus-4-1', label: 'Claude Opus 4.1', tier: 'smart', costRank: 3, speedRank: 3, intelligenceRank: 1 };
const models = [haiku, sonnet, opus];
const DEFAULT = 'claude-sonnet-4-5';

const choose = (preferences: Parameters<typeof chooseModel>[0], list: ConfiguredModel[] = models) => chooseModel(preferences, list, DEFAULT);

describe('chooseModel', () => {
  it('uses the default when the server states no preferences', () => {
    expect(choose(undefined)).toEqual({
      model: DEFAULT,
      explanation: 'The server stated no model preferences; using the default model Claude Sonnet 4.5 (claude-sonnet-4-5).',
    });
    expect(choose({})).toEqual({ model: DEFAULT, explanation: 'No model hints and no priorities; using the default model Claude Sonnet 4.5 (claude-sonnet-4-5).' });
  });

  it('matches a hint by substring of the id or label', () => {
    expect(choose({ hints: [{ name: 'sonnet' }] })).toEqual({
      model: 'claude-sonnet-4-5',
      explanation: "Hint 'sonnet' matched Claude Sonnet 4.5 (claude-sonnet-4-5).",
      matchedHint: 'sonnet',
    });
    expect(choose({ hints: [{ name: 'Opus 4.1' }] }).model).toBe('claude-opus-4-1');
    expect(choose({ hints: [{ name: 'claude-haiku-4-5' }] }).model).toBe('claude-haiku-4-5');
    expect(choose({ hints: [{ name: 'HAIKU' }] }).model).toBe('claude-haiku-4-5');
  });

  it('takes hints in order: the first one that matches decides, even against priorities', () => {
    const result = choose({ hints: [{ name: 'gpt-4o' }, { name: 'opus' }, { name: 'haiku' }], speedPriority: 1 });
    expect(result).toMatchObject({ model: 'claude-opus-4-1', matchedHint: 'opus' });
  });

  it('maps an older Claude name onto the configured model of the same family', () => {
    expect(choose({ hints: [{ name: 'claude-3-sonnet' }] })).toEqual({
      model: 'claude-sonnet-4-5',
      explanation: "Hint 'claude-3-sonnet' names the sonnet family, which matched Claude Sonnet 4.5 (claude-sonnet-4-5).",
      matchedHint: 'claude-3-sonnet',
    });
    expect(choose({ hints: [{ name: 'claude-3-haiku-20240307' }] }).model).toBe('claude-haiku-4-5');
  });

  it('maps other providers’ family words onto tiers', () => {
    expect(choose({ hints: [{ name: 'gemini-1.5-flash' }] })).toEqual({
      model: 'claude-haiku-4-5',
      explanation: "Hint 'gemini-1.5-flash' suggests a fast model like flash, which matched Claude Haiku 4.5 (claude-haiku-4-5).",
      matchedHint: 'gemini-1.5-flash',
    });
    expect(choose({ hints: [{ name: 'gpt-4o-mini' }] }).model).toBe('claude-haiku-4-5');
    expect(choose({ hints: [{ name: 'gemini-ultra' }] }).model).toBe('claude-opus-4-1');
    // A family word whose tier is missing from the settings does not match.
    expect(choose({ hints: [{ name: 'opus' }] }, [haiku, sonnet]).matchedHint).toBeUndefined();
  });

  it('a hint matching several models is settled by priorities, or else the default', () => {
    expect(choose({ hints: [{ name: 'claude' }], intelligencePriority: 0.9 })).toEqual({
      model: 'claude-opus-4-1',
      explanation: "Hint 'claude' matched 3 configured models; intelligence priority 0.9 favoured Claude Opus 4.1 (claude-opus-4-1).",
      matchedHint: 'claude',
    });
    expect(choose({ hints: [{ name: 'claude' }] })).toEqual({
      model: 'claude-sonnet-4-5',
      explanation: "Hint 'claude' matched 3 configured models; chose Claude Sonnet 4.5 (claude-sonnet-4-5), the default model.",
      matchedHint: 'claude',
    });
    expect(choose({ hints: [{ name: 'claude' }] }, [opus, haiku]).explanation).toBe(
      "Hint 'claude' matched 2 configured models; chose Claude Opus 4.1 (claude-opus-4-1), the first of them in the settings.",
    );
  });

  it('without a matching hint, a single priority picks the best model on that axis', () => {
    expect(choose({ hints: [{ name: 'llama' }], speedPriority: 0.8 })).toEqual({
      model: 'claude-haiku-4-5',
      explanation: "No hint matched ('llama'); speed priority 0.8 favoured Claude Haiku 4.5 (claude-haiku-4-5).",
    });
    expect(choose({ costPriority: 0.3 }).model).toBe('claude-haiku-4-5');
    expect(choose({ intelligencePriority: 0.1 }).model).toBe('claude-opus-4-1');
  });

  it('weighs several priorities together', () => {
    expect(choose({ costPriority: 0.2, speedPriority: 0.3, intelligencePriority: 0.9 })).toEqual({
      model: 'claude-opus-4-1',
      explanation: 'No model hints; weighing priorities cost 0.2, speed 0.3 and intelligence 0.9 favoured Claude Opus 4.1 (claude-opus-4-1).',
    });
    expect(choose({ costPriority: 0.6, speedPriority: 0.6, intelligencePriority: 0.5 }).model).toBe('claude-haiku-4-5');
    // Balanced weights with a middle model that is never worst: the tie goes to the default.
    expect(choose({ speedPriority: 0.5, intelligencePriority: 0.5 }).model).toBe('claude-sonnet-4-5');
  });

  it('treats zero priorities as none and clamps values above 1', () => {
    expect(choose({ costPriority: 0, speedPriority: 0, intelligencePriority: 0 }).model).toBe(DEFAULT);
    expect(choose({ speedPriority: 7 }).explanation).toContain('speed priority 1 favoured');
  });

  it('ignores empty hint names', () => {
    expect(choose({ hints: [{}, { name: '  ' }] }).explanation).toBe('No model hints and no priorities; using the default model Claude Sonnet 4.5 (claude-sonnet-4-5).');
  });

  it('falls back to the default id when no models are configured or the default is not among them', () => {
    expect(chooseModel({ hints: [{ name: 'opus' }] }, [], 'claude-x')).toEqual({ model: 'claude-x', explanation: 'Only the default model claude-x is configured.' });
    expect(chooseModel({}, [haiku], 'claude-x')).toEqual({ model: 'claude-x', explanation: 'No model hints and no priorities; using the default model claude-x.' });
  });

  it('ties on priorities go to the default model, then to the configured order', () => {
    const twin = { ...haiku, id: 'claude-haiku-twin', label: 'Twin' };
    expect(chooseModel({ speedPriority: 1 }, [haiku, twin], 'claude-haiku-twin').model).toBe('claude-haiku-twin');
    expect(chooseModel({ speedPriority: 1 }, [haiku, twin], 'other').model).toBe('claude-haiku-4-5');
  });
});
