import { describe, expect, it } from 'vitest';
import type { CandidateModel } from './candidate-models';
import { chooseModel } from './model-selection';

const haiku: CandidateModel = {
  key: 'claude-haiku-4-5',
  label: 'Claude Haiku 4.5',
  providerLabel: 'Anthropic',
  tier: 'fast',
  costRank: 2,
  speedRank: 2,
  intelligenceRank: 4,
};
const sonnet: CandidateModel = {
  key: 'claude-sonnet-5',
  label: 'Claude Sonnet 5',
  providerLabel: 'Anthropic',
  tier: 'balanced',
  costRank: 3,
  speedRank: 3,
  intelligenceRank: 2,
};
const opus: CandidateModel = {
  key: 'claude-opus-5',
  label: 'Claude Opus 5',
  providerLabel: 'Anthropic',
  tier: 'smart',
  costRank: 5,
  speedRank: 5,
  intelligenceRank: 1,
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
const gpt4oMini: CandidateModel = {
  key: 'openai:gpt-4o-mini',
  label: 'gpt-4o-mini',
  providerLabel: 'OpenAI',
  tier: 'fast',
  costRank: 2,
  speedRank: 2,
  intelligenceRank: 4,
};
const llama: CandidateModel = {
  key: 'ollama:llama3.1:8b',
  label: 'llama3.1:8b',
  providerLabel: 'Ollama',
  tier: 'fast',
  costRank: 1,
  speedRank: 4,
  intelligenceRank: 5,
};
const routed: CandidateModel = {
  key: 'openrouter:openai/gpt-4o',
  label: 'OpenAI: GPT-4o',
  providerLabel: 'OpenRouter',
  tier: 'balanced',
  costRank: 4,
  speedRank: 3,
  intelligenceRank: 2,
};
const all = [haiku, sonnet, opus, gpt4o, gpt4oMini, llama];
const DEFAULT = 'claude-sonnet-5';

const choose = (preferences: Parameters<typeof chooseModel>[0], list: CandidateModel[] = all, defaultKey = DEFAULT) =>
  chooseModel(preferences, list, defaultKey);

describe('chooseModel across providers', () => {
  it('uses the default when the server states no preferences, or none that say anything', () => {
    expect(choose(undefined)).toEqual({
      model: DEFAULT,
      explanation: 'No preferences from the server: your default model.',
      explanationMessage: { code: 'sampling-words.no-preferences', params: {} },
    });
    expect(choose({})).toEqual({
      model: DEFAULT,
      explanation: 'No hints or priorities from the server: your default model.',
      explanationMessage: { code: 'sampling-words.no-hints-or-priorities', params: {} },
    });
    expect(choose({ hints: [{}, { name: '  ' }] }).explanation).toBe(
      'No hints or priorities from the server: your default model.',
    );
  });

  it('matches hints of several providers against every model’s own name', () => {
    // An exact name wins over the longer names that contain it (gpt-4o-mini).
    expect(choose({ hints: [{ name: 'gpt-4o' }] })).toMatchObject({
      model: 'openai:gpt-4o',
      explanation: 'Matched the server’s hint “gpt-4o”.',
      matchedHint: 'gpt-4o',
    });
    expect(choose({ hints: [{ name: 'gpt-4o-mini' }] }).model).toBe('openai:gpt-4o-mini');
    // "llama" is in the provider id "ollama" of every Ollama model: only the model's own name counts.
    expect(choose({ hints: [{ name: 'llama' }] })).toMatchObject({
      model: 'ollama:llama3.1:8b',
      explanation: 'Matched the server’s hint “llama”.',
    });
    expect(choose({ hints: [{ name: 'sonnet' }] })).toMatchObject({
      model: 'claude-sonnet-5',
      explanation: 'Matched the server’s hint “sonnet”.',
    });
    // A hint may name Berth's key itself.
    expect(choose({ hints: [{ name: 'openai:gpt-4o-mini' }] }).model).toBe('openai:gpt-4o-mini');
  });

  it('maps an older Claude name onto the family, and other providers’ family words onto tiers', () => {
    expect(choose({ hints: [{ name: 'claude-3-sonnet' }] })).toMatchObject({
      model: 'claude-sonnet-5',
      explanation: 'The server’s hint “claude-3-sonnet” names the sonnet family.',
      matchedHint: 'claude-3-sonnet',
    });
    const flash = choose({ hints: [{ name: 'gemini-1.5-flash' }] }, [haiku, sonnet, opus]);
    expect(flash).toMatchObject({
      model: 'claude-haiku-4-5',
      explanation: 'The server’s hint “gemini-1.5-flash” asks for a fast model (“flash”): your only fast model.',
      matchedHint: 'gemini-1.5-flash',
    });
    // A family word with no model of its tier falls through to the next hint.
    expect(choose({ hints: [{ name: 'gemini-ultra' }, { name: 'gpt-4o' }] }, [haiku, sonnet, gpt4o]).model).toBe(
      'openai:gpt-4o',
    );
  });

  it('when a hint matches several models of different providers, priorities decide, else the default, else the list order', () => {
    expect(choose({ hints: [{ name: 'gpt-4o' }] }, [sonnet, routed, gpt4o]).model).toBe('openrouter:openai/gpt-4o');
    expect(choose({ hints: [{ name: 'gpt-4o' }] }, [sonnet, routed, gpt4o]).explanation).toBe(
      'Matched the server’s hint “gpt-4o” (2 models); the first of them in your list, OpenAI: GPT-4o (openrouter:openai/gpt-4o).',
    );
    expect(choose({ hints: [{ name: 'gpt-4o' }] }, [sonnet, routed, gpt4o], 'openai:gpt-4o')).toMatchObject({
      model: 'openai:gpt-4o',
      explanation: 'Matched the server’s hint “gpt-4o” (2 models); your default model is one of them.',
    });
    expect(choose({ hints: [{ name: 'claude' }], intelligencePriority: 0.9 })).toMatchObject({
      model: 'claude-opus-5',
      explanation:
        'Matched the server’s hint “claude” (3 models); the server asked for intelligence (0.9): the most capable model of them.',
    });
  });

  it('without a matching hint, priorities pick through the ranks across providers', () => {
    expect(choose({ hints: [{ name: 'mixtral-8x7b' }], costPriority: 0.8 })).toMatchObject({
      model: 'ollama:llama3.1:8b',
      explanation:
        'No model matched the server’s hint “mixtral-8x7b”; the server asked for cost (0.8): the cheapest model.',
    });
    expect(choose({ speedPriority: 0.8, intelligencePriority: 0.2 })).toMatchObject({
      model: 'claude-haiku-4-5',
      explanation:
        'The server asked for speed (0.8) over intelligence (0.2): one of the 2 fastest models (the first in your list).',
    });
    const balanced = choose({ costPriority: 0.5, speedPriority: 0.5, intelligencePriority: 0.5 }, [
      opus,
      sonnet,
      llama,
    ]);
    expect(balanced).toMatchObject({
      model: 'claude-sonnet-5',
      explanation:
        'The server weighed cost (0.5), speed (0.5) and intelligence (0.5) equally: the best balance of cost, speed and intelligence.',
    });
  });

  it('an unknown hint without priorities keeps the default and says the hint matched nothing', () => {
    expect(choose({ hints: [{ name: 'zzz-9000' }, { name: 'qqq' }] })).toMatchObject({
      model: DEFAULT,
      explanation:
        'No model matched the server’s hints “zzz-9000”, “qqq” and it gave no priorities: your default model.',
    });
  });

  it('treats zero priorities as none and clamps values above 1', () => {
    expect(choose({ costPriority: 0, speedPriority: 0 }).model).toBe(DEFAULT);
    expect(choose({ speedPriority: 7 }).explanation).toContain('The server asked for speed (1)');
  });

  it('ties go to the default model, then to the list order', () => {
    const twin = { ...haiku, key: 'openai:haiku-twin', label: 'Twin', providerLabel: 'OpenAI' };
    expect(chooseModel({ speedPriority: 1 }, [haiku, twin], 'openai:haiku-twin')).toMatchObject({
      model: 'openai:haiku-twin',
      explanation: 'The server asked for speed (1): one of the 2 fastest models (your default model).',
    });
    expect(chooseModel({ speedPriority: 1 }, [haiku, twin], 'other').model).toBe('claude-haiku-4-5');
  });

  it('falls back to the default key when no models are listed', () => {
    expect(chooseModel({ hints: [{ name: 'opus' }] }, [], 'claude-x')).toEqual({
      model: 'claude-x',
      explanation: 'No models are listed: your default model.',
      explanationMessage: { code: 'sampling-words.no-models', params: {} },
    });
  });

  it('gives the reason as facts beside its English: the hint, how it reached the models, the priorities and the pick', () => {
    expect(choose({ hints: [{ name: 'gemini-1.5-flash' }] }, [haiku, sonnet, opus]).choice).toEqual({
      kind: 'hint-only',
      reach: { via: 'tier', hint: 'gemini-1.5-flash', family: 'flash', tier: 'fast' },
    });
    expect(choose({ hints: [{ name: 'gpt-4o' }] }, [sonnet, routed, gpt4o]).choice).toEqual({
      kind: 'hint-first',
      reach: { via: 'name', hint: 'gpt-4o' },
      count: 2,
      model: 'OpenAI: GPT-4o (openrouter:openai/gpt-4o)',
    });
    expect(choose({ hints: [{ name: 'claude' }], intelligencePriority: 0.9 }).choice).toEqual({
      kind: 'hint-weighted',
      reach: { via: 'name', hint: 'claude' },
      count: 3,
      weighing: { weights: [{ axis: 'intelligence', weight: 0.9 }], equal: false },
      pick: { kind: 'best', axis: 'intelligence' },
    });
    expect(choose({ speedPriority: 0.8, intelligencePriority: 0.2 }).choice).toEqual({
      kind: 'weighted',
      unmatched: [],
      weighing: {
        weights: [
          { axis: 'speed', weight: 0.8 },
          { axis: 'intelligence', weight: 0.2 },
        ],
        equal: false,
      },
      pick: { kind: 'tied', axis: 'speed', count: 2, yours: false },
    });
    const balanced = choose({ costPriority: 0.5, speedPriority: 0.5, intelligencePriority: 0.5 }, [
      opus,
      sonnet,
      llama,
    ]);
    expect(balanced.choice).toMatchObject({
      weighing: { equal: true },
      pick: { kind: 'balance', axes: ['cost', 'speed', 'intelligence'] },
    });
    expect(choose({ hints: [{ name: 'zzz-9000' }, { name: 'qqq' }] }).choice).toEqual({
      kind: 'unmatched',
      unmatched: ['zzz-9000', 'qqq'],
    });
    // A reason that has a code of its own has no facts to word.
    expect(choose(undefined).choice).toBeUndefined();
  });
});
