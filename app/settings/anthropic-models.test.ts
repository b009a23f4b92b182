import { describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { toAnthropicModels } from './anthropic-models';
import { DEFAULT_MODELS } from './model-table';

describe("Anthropic's models as settings.json keeps them", () => {
  it('keeps what the person set, fills the rest from the current list or the defaults, else the middle', () => {
    const current = [
      { id: 'claude-x', label: 'X', tier: 'smart' as const, costRank: 7, speedRank: 8, intelligenceRank: 9 },
    ];
    expect(
      toAnthropicModels(
        [
          { id: 'claude-opus-5', supportsTools: true },
          { id: 'claude-x', supportsTools: false, takesImages: false },
          { id: 'claude-typed', label: 'Typed', supportsTools: true, contextWindow: 500 },
        ],
        current,
      ),
    ).toEqual([
      { ...DEFAULT_MODELS.find((m) => m.id === 'claude-opus-5') },
      {
        id: 'claude-x',
        label: 'X',
        tier: 'smart',
        costRank: 7,
        speedRank: 8,
        intelligenceRank: 9,
        supportsTools: false,
        takesImages: false,
      },
      // A context window under a thousand tokens is no context window.
      { id: 'claude-typed', label: 'Typed', tier: 'balanced', costRank: 50, speedRank: 50, intelligenceRank: 50 },
    ]);
  });

  it('refuses an empty list and duplicate ids, naming the field', () => {
    expect(() => toAnthropicModels([], [])).toThrow(HostError);
    expect(() => toAnthropicModels([], [])).toThrow('Keep at least one Anthropic model');
    try {
      toAnthropicModels(
        [
          { id: 'claude-a', supportsTools: true },
          { id: 'claude-a', supportsTools: true },
        ],
        [],
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_INPUT',
        message: 'model ids must be unique',
        path: 'changes.models',
        hostMessage: { code: 'settings-errors.anthropic-model-ids-twice' },
      });
    }
  });
});
