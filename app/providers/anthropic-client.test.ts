import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '@anthropic-ai/sdk/resources/models';
import { toProviderModel } from './anthropic-client';

describe("the models endpoint's entries", () => {
  const info = (extra: Partial<ModelInfo>): ModelInfo =>
    ({
      type: 'model',
      id: 'claude-m',
      display_name: 'Claude M',
      created_at: '2026-01-01T00:00:00Z',
      capabilities: null,
      line: null,
      max_input_tokens: null,
      ...extra,
    }) as ModelInfo;

  it('take the display name, context window, image input and the line as a tier', () => {
    expect(
      toProviderModel(
        info({
          line: 'haiku',
          max_input_tokens: 200_000,
          capabilities: { image_input: { supported: false } } as ModelInfo['capabilities'],
        }),
      ),
    ).toEqual({ id: 'claude-m', label: 'Claude M', contextWindow: 200_000, takesImages: false, tier: 'fast' });
  });

  it('carry how the model reasons and whether the API compacts its context, from its capabilities', () => {
    const capabilities = {
      thinking: { supported: true, types: { adaptive: { supported: true }, enabled: { supported: true } } },
      effort: { supported: true, low: { supported: true }, medium: { supported: true }, high: { supported: true } },
      context_management: { supported: true, compact_20260112: { supported: true } },
    } as ModelInfo['capabilities'];
    expect(toProviderModel(info({ id: 'claude-3-odd', display_name: 'claude-3-odd', capabilities }))).toEqual({
      id: 'claude-3-odd',
      reasoning: 'adaptive',
      contextManagement: true,
    });
  });

  it('leave out what the endpoint did not say (an older API has no capabilities or line)', () => {
    expect(toProviderModel(info({ display_name: 'claude-m' }))).toEqual({ id: 'claude-m' });
  });
});
