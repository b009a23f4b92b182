import type { z } from 'zod';
import type { CodedText } from './host-wording';
import { inputIssueWords } from './input-issue-words';
import { ANTHROPIC_PROVIDER_ID } from './model-key';
import { MAX_SAMPLING_BUDGET, MAX_SAMPLING_MAX_TOKENS } from './sampling-defaults';
import { settingsError, type TokenField } from './settings-errors';

const TOKEN_MAX: Record<TokenField, number> = {
  maxTokens: MAX_SAMPLING_MAX_TOKENS,
  sessionBudget: MAX_SAMPLING_BUDGET,
};

const isTokenField = (key: PropertyKey | undefined): key is TokenField =>
  key === 'maxTokens' || key === 'sessionBudget';

/** The settings schemas' own sentences (providers.ts, sampling-limits.ts, the Anthropic model list), coded. */
function ownSentences(issue: z.core.$ZodIssue): CodedText[] {
  const sentences: CodedText[] = [
    settingsError('settings-errors.provider-id-form', {}),
    settingsError('settings-errors.provider-id-built-in', { id: ANTHROPIC_PROVIDER_ID }),
    settingsError('settings-errors.provider-name-missing', {}),
    settingsError('settings-errors.base-url-not-http', {}),
    settingsError('settings-errors.base-url-has-credentials', {}),
    settingsError('settings-errors.model-id-missing', {}),
    settingsError('settings-errors.model-ids-twice', {}),
    settingsError('settings-errors.anthropic-model-ids-twice', {}),
  ];
  const field = issue.path.at(-1);
  if (isTokenField(field)) {
    sentences.push(
      settingsError('settings-errors.tokens-not-number', { field }),
      settingsError('settings-errors.tokens-not-whole', { field }),
      settingsError('settings-errors.tokens-at-least-one', { field }),
      settingsError('settings-errors.tokens-at-most', { field, max: TOKEN_MAX[field] }),
    );
  }
  return sentences;
}

/**
 * A settings change the schema refuses, as the person reads it: the schema's own sentence as its settings-errors
 * code (only where the code's English is the sentence word for word), else the first issue by its kind, as a
 * refused input reads (bridge-errors). The failure's message keeps the schema's words.
 */
export function settingsIssueWords(issues: readonly z.core.$ZodIssue[]): CodedText | undefined {
  const first = issues[0];
  if (first === undefined) return undefined;
  return ownSentences(first).find((words) => words.text === first.message) ?? inputIssueWords(issues);
}
