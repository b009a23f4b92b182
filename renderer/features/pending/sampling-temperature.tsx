import { formatNumber } from '../../i18n/format';
import { translate, useT } from '../../i18n/use-t';

/** What the person typed as the temperature: a number to send, null for the model's default, or why it cannot be sent. */
export function checkTemperature(text: string): { value: number | null } | { error: string } {
  const cleaned = text.trim().replace(',', '.');
  if (cleaned === '') return { value: null };
  const value = Number(cleaned);
  if (!Number.isFinite(value) || value < 0 || value > 2) return { error: translate('pending.temperature.invalid') };
  return { value };
}

/** The temperature row of the review's facts, editable; empty means the model's default. */
export function SamplingTemperatureFact({
  id,
  requested,
  text,
  error,
  onText,
}: {
  id: string;
  requested: number | undefined;
  text: string;
  error: string | undefined;
  onText: (text: string) => void;
}) {
  const t = useT();
  return (
    <>
      <dt>
        <label htmlFor={id}>{t('pending.temperature.label')}</label>
      </dt>
      <dd>
        <input
          id={id}
          className="input tokens-input"
          inputMode="decimal"
          value={text}
          placeholder={t('pending.temperature.placeholder')}
          aria-invalid={error !== undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => onText(e.target.value)}
        />
        {error !== undefined ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <p className="fact-note" id={`${id}-note`}>
          {requested === undefined
            ? t('pending.temperature.none')
            : t('pending.temperature.asked', { value: formatNumber(requested) })}{' '}
          {t('pending.temperature.note')}
        </p>
      </dd>
    </>
  );
}
