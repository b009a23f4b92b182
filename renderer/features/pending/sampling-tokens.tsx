import type { SamplingTokenPlan } from '../../../shared/domain/sampling-limits';
import { formatNumber } from '../../i18n/format';
import { translate, useT } from '../../i18n/use-t';

/** Why Berth proposes the max tokens it does, in one sentence. */
export function proposalNote(tokens: SamplingTokenPlan): string {
  const requested = formatNumber(tokens.requested);
  const proposed = formatNumber(tokens.proposed);
  if (tokens.limitedBy === 'cap') return translate('pending.tokens.cap', { requested, proposed });
  if (tokens.limitedBy === 'budget') return translate('pending.tokens.budget', { requested, proposed });
  return translate('pending.tokens.within', { requested, limit: formatNumber(tokens.limits.maxTokens) });
}

/** The person's max tokens, or why it cannot be sent. */
export function checkMaxTokens(text: string, tokens: SamplingTokenPlan): { value: number } | { error: string } {
  const cleaned = text.trim().replace(/[\s,_]/gu, '');
  const value = Number(cleaned);
  if (cleaned === '' || !Number.isInteger(value) || value < 1) return { error: translate('pending.tokens.notWhole') };
  if (value > tokens.requested)
    return { error: translate('pending.tokens.tooMany', { requested: formatNumber(tokens.requested) }) };
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
  const t = useT();
  const left = Math.max(0, tokens.limits.sessionBudget - tokens.used);
  return (
    <>
      <dt>
        <label htmlFor={id}>{t('pending.tokens.max')}</label>
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
      <dt>{t('pending.tokens.session')}</dt>
      <dd data-testid="review-budget">
        {t('pending.tokens.used', {
          used: formatNumber(tokens.used),
          budget: formatNumber(tokens.limits.sessionBudget),
          left: formatNumber(left),
        })}
        <p className="fact-note">{t('pending.tokens.counted')}</p>
      </dd>
    </>
  );
}
