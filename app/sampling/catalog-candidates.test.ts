import { describe, expect, it } from 'vitest';
import type { CatalogModel } from '../settings/model-catalog';
import { catalogCandidates } from './candidate-models';

const model = (key: string, provider: string, ready: boolean, extra: Partial<CatalogModel> = {}): CatalogModel => ({
  key,
  provider,
  providerLabel: provider === 'anthropic' ? 'Anthropic' : 'Ollama',
  model: key.replace(/^ollama:/, ''),
  label: key,
  tier: 'balanced',
  costRank: 2,
  speedRank: 2,
  intelligenceRank: 2,
  supportsTools: true,
  takesImages: true,
  ready,
  ...extra,
});

describe('sampling candidates from every provider', () => {
  it('offers only models whose provider is ready, with the person’s ranks over the defaults', () => {
    const candidates = catalogCandidates({
      catalog: () => [
        model('claude-sonnet-5', 'anthropic', false),
        model('ollama:llama3.1:8b', 'ollama', true, { supportsTools: false, takesImages: false }),
      ],
      defaultModel: () => 'ollama:llama3.1:8b',
      modelRanks: () => ({ 'ollama:llama3.1:8b': { tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 4 } }),
    });
    expect(candidates.list()).toEqual([
      {
        key: 'ollama:llama3.1:8b',
        label: 'ollama:llama3.1:8b',
        providerLabel: 'Ollama',
        tier: 'fast',
        costRank: 1,
        speedRank: 1,
        intelligenceRank: 4,
        supportsTools: false,
        takesImages: false,
      },
    ]);
    expect(candidates.defaultKey()).toBe('ollama:llama3.1:8b');
  });
});
