import type { SamplingTokenPlan } from '../../../shared/domain/sampling-limits';

/** Why Berth proposes the max tokens it does, in one sentence. */
export function proposalNote(tokens: SamplingTokenPlan): string {
  const asked = `The server asked for ${tokens.requested.toLocaleString()}`;
  if (tokens.limitedBy === 'cap')
    return `${asked}; capped at ${tokens.proposed.toLocaleString()}, this server’s limit per request (change it in its Overview).`;
  if (tokens.limitedBy === 'budget')
    return `${asked}; lowered to ${tokens.proposed.toLocaleString()}, what is left of this server’s session budget.`;
  return `${asked}, within this server’s limit of ${tokens.limits.maxTokens.toLocaleString()}.`;
}

/** The person's max tokens, or why it cannot be sent. */
export function checkMaxTokens(text: string, tokens: SamplingTokenPlan): { value: number } | { error: string } {
  const cleaned = text.trim().replace(/[\s,_]/gu, '');
  const value = Number(cleaned);
  if (cleaned === '' || !Number.isInteger(value) || value < 1)
    return { error: 'Enter a whole number of tokens, at least 1.' };
  if (value > tokens.requested)
    return { error: `At most the ${tokens.requested.toLocaleString()} the server asked for.` };
  return { value };
}

/** Max tokens (editable) and the session budget, as rows of the review's facts. */
export function SamplingTokenFacts({
  tokens,
  id,
  text,
  error,
  onText,
}: {
  tokens: SamplingTokenPlan;
  id: string;
  text: string;
  error: string | undefined;
  onText: (text: string) => void;
}) {
  const left = Math.max(0, tokens.limits.sessionBudget - tokens.used);
  return (
    <>
      <dt>
        <label htmlFor={id}>Max tokens</label>
      </dt>
      <dd>
        <input
          id={id}
          className="input tokens-input"
          inputMode="numeric"
          value={text}
          aria-invalid={error !== undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => onText(e.target.value)}
        />
        {error !== undefined ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <p className="fact-note" id={`${id}-note`} data-testid="max-tokens-note">
          {proposalNote(tokens)}
        </p>
      </dd>
      <dt>Session budget</dt>
      <dd data-testid="review-budget">
        {tokens.used.toLocaleString()} of {tokens.limits.sessionBudget.toLocaleString()} tokens used;{' '}
        {left.toLocaleString()} left
        <p className="fact-note">Input and output tokens, counted since Berth started.</p>
      </dd>
    </>
  );
}
