import { afterAll, describe, expect, it } from 'vitest';
import { choiceEnglish, type SamplingChoice } from '../../../shared/domain/sampling-choice';
import { activateLocale } from '../../i18n/i18n';
import { samplingChoiceText } from './sampling-choice-text';

const over = {
  weights: [
    { axis: 'speed' as const, weight: 0.8 },
    { axis: 'cost' as const, weight: 0.5 },
    { axis: 'intelligence' as const, weight: 0.2 },
  ],
  equal: false,
};
const equal = {
  weights: [
    { axis: 'cost' as const, weight: 0.5 },
    { axis: 'speed' as const, weight: 0.5 },
  ],
  equal: true,
};
const one = { weights: [{ axis: 'intelligence' as const, weight: 0.9 }], equal: false };

// Every kind of choice and every clause: what chooseModel (app/sampling/model-selection.test.ts) gives.
const CHOICES: SamplingChoice[] = [
  { kind: 'hint-only', reach: { via: 'name', hint: 'gpt-4o' } },
  { kind: 'hint-only', reach: { via: 'family', hint: 'claude-3-sonnet', family: 'sonnet' } },
  { kind: 'hint-only', reach: { via: 'tier', hint: 'gemini-1.5-flash', family: 'flash', tier: 'fast' } },
  { kind: 'hint-default', reach: { via: 'name', hint: 'gpt-4o' }, count: 2 },
  {
    kind: 'hint-first',
    reach: { via: 'tier', hint: 'mistral-large', family: 'large', tier: 'smart' },
    count: 2,
    model: 'OpenAI: GPT-4o (openrouter:openai/gpt-4o)',
  },
  {
    kind: 'hint-weighted',
    reach: { via: 'name', hint: 'claude' },
    count: 3,
    weighing: one,
    pick: { kind: 'best', axis: 'intelligence' },
  },
  { kind: 'weighted', unmatched: [], weighing: over, pick: { kind: 'tied', axis: 'speed', count: 2, yours: false } },
  {
    kind: 'weighted',
    unmatched: [],
    weighing: one,
    pick: { kind: 'tied', axis: 'intelligence', count: 2, yours: true },
  },
  { kind: 'weighted', unmatched: ['mixtral-8x7b'], weighing: one, pick: { kind: 'best', axis: 'cost' } },
  {
    kind: 'weighted',
    unmatched: ['a', 'b'],
    weighing: equal,
    pick: { kind: 'balance', axes: ['cost', 'speed'] },
  },
  {
    kind: 'hint-weighted',
    reach: { via: 'family', hint: 'gpt', family: 'gpt' },
    count: 4,
    weighing: over,
    pick: { kind: 'balance', axes: ['speed', 'cost', 'intelligence'] },
  },
  { kind: 'unmatched', unmatched: ['zzz-9000'] },
  { kind: 'unmatched', unmatched: ['zzz-9000', 'qqq'] },
];

afterAll(() => activateLocale('en'));

describe('the sampling review words why the server’s hints or priorities chose a model', () => {
  it.each(CHOICES.map((choice) => [choiceEnglish(choice), choice] as const))(
    'reads in English as the host wrote it: %s',
    async (english, choice) => {
      await activateLocale('en');
      expect(samplingChoiceText(choice)).toBe(english);
    },
  );

  it.each(CHOICES.map((choice) => [choice.kind, choice] as const))(
    'words %s in Japanese, keeping the hints, numbers and model names as written',
    async (_, choice) => {
      await activateLocale('ja');
      const text = samplingChoiceText(choice);
      expect(text).not.toMatch(/[{}]|server|model|hint|the /);
      const json = JSON.stringify(choice);
      for (const hint of json.match(/"hint":"([^"]+)"/g) ?? []) expect(text).toContain(hint.slice(8, -1));
      if ('model' in choice) expect(text).toContain(choice.model);
      if ('weighing' in choice)
        for (const { weight } of choice.weighing.weights) expect(text).toContain(String(weight));
    },
  );

  it('words the axes and the best-on words in Korean', async () => {
    await activateLocale('ko');
    expect(samplingChoiceText(CHOICES[6] as SamplingChoice)).toBe(
      '서버가 비용(0.5), 성능(0.2)보다 속도(0.8)을(를) 우선했습니다. 가장 빠른 모델 2개 중 하나(목록의 첫 번째)입니다.',
    );
  });
});
