import { describe, expect, it } from 'vitest';
import { SamplingLimitsSchema } from './sampling-limits';
import { ProviderConfigSchema } from './providers';
import { settingsIssueWords } from './settings-issue-words';
import { settingsError } from './settings-errors';

const issuesOf = (result: { success: boolean; error?: { issues: never[] } }) => result.error?.issues ?? [];

describe("a settings schema's own sentence as its code, the same words", () => {
  it.each([
    [{ maxTokens: 'x', sessionBudget: 10 }, 'settings-errors.tokens-not-number', { field: 'maxTokens' }],
    [{ maxTokens: 10, sessionBudget: 2.5 }, 'settings-errors.tokens-not-whole', { field: 'sessionBudget' }],
    [{ maxTokens: 0, sessionBudget: 10 }, 'settings-errors.tokens-at-least-one', { field: 'maxTokens' }],
    [
      { maxTokens: 10, sessionBudget: 1e12 },
      'settings-errors.tokens-at-most',
      { field: 'sessionBudget', max: 100_000_000 },
    ],
  ])('%j', (limits, code, params) => {
    const result = SamplingLimitsSchema.safeParse(limits);
    const words = settingsIssueWords(issuesOf(result as never));
    expect(words?.hostMessage).toEqual({ code, params });
    expect(words?.text).toBe(result.error?.issues[0]?.message);
  });

  it("codes a provider's refusals, and a schema's words Berth did not write by their kind", () => {
    const provider = { id: 'lab', label: 'Lab', preset: 'custom', baseUrl: 'http://127.0.0.1:1/v1' };
    const code = (input: object) =>
      settingsIssueWords(issuesOf(ProviderConfigSchema.safeParse({ ...provider, ...input }) as never))?.hostMessage;
    expect(code({ id: 'anthropic' })).toEqual(
      settingsError('settings-errors.provider-id-built-in', { id: 'anthropic' }).hostMessage,
    );
    expect(code({ baseUrl: 'ftp://x' })?.code).toBe('settings-errors.base-url-not-http');
    expect(code({ models: [{ id: 'a' }, { id: 'a' }] })?.code).toBe('settings-errors.model-ids-twice');
    expect(code({ preset: 'nope' })).toEqual({ code: 'bridge-errors.not-a-choice', params: { field: 'preset' } });
  });
});
