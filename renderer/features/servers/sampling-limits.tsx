import { useState } from 'react';
import { SamplingLimitsSchema } from '../../../shared/domain/sampling-limits';
import type { SamplingLimits, SamplingUsage } from '../../../shared/domain/sampling-limits';
import { samplingUsageOf, useBerth } from '../../store';
import { Button, Chip, Field, InlineAlert } from '../../ui/controls';
import { LimitFormActions, tokensOf } from './limit-form';
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureText, hostText } from '../../i18n/host-message';
import type { CodedText } from '../../../shared/domain/host-wording';
import { settingsIssueWords } from '../../../shared/domain/settings-issue-words';

const fieldText = (words: CodedText | undefined): string | undefined =>
  words === undefined ? undefined : hostText(words.hostMessage, words.text);
import type { Failure } from '../../../shared/result';

/**
 * The Overview's sampling facts: the cap on one request's max tokens and the
 * token budget for this Berth session, with what the server has spent, and
 * the place to change or reset them.
 */
export function SamplingLimitsFacts({ server }: { server: string }) {
  const t = useT();
  // One selector per stored value: a fresh default object from a selector would re-render forever.
  const known = useBerth((s) => s.samplingUsage[server]);
  const samplingDefaults = useBerth((s) => s.samplingDefaults);
  const usage = known ?? samplingUsageOf({ samplingUsage: {}, samplingDefaults }, server);
  const resetUsage = useBerth((s) => s.resetSamplingUsage);
  const [editing, setEditing] = useState(false);
  const { limits, used, inFlight } = usage;
  const spent = used >= limits.sessionBudget;
  const share = Math.min(100, Math.round((used / limits.sessionBudget) * 100));
  return (
    <>
      <dt>{t('servers.sampling.title')}</dt>
      <dd className="sampling-limits" data-testid="sampling-limits">
        {editing ? (
          <SamplingLimitsForm usage={usage} onDone={() => setEditing(false)} />
        ) : (
          <>
            <p className="sampling-limit-line">
              <T
                id="servers.sampling.maxLine"
                values={{ maxTokens: formatNumber(limits.maxTokens) }}
                components={{ strong: <strong /> }}
              />
              {usage.custom ? null : <span className="muted"> {t('servers.sampling.default')}</span>}
            </p>
            <p className="sampling-limit-line" data-testid="sampling-budget">
              <T
                id="servers.sampling.usedLine"
                values={{ used: formatNumber(used), budget: formatNumber(limits.sessionBudget) }}
                components={{ strong: <strong /> }}
              />
              {inFlight > 0 ? (
                <span className="muted"> {t('servers.sampling.held', { count: formatNumber(inFlight) })}</span>
              ) : null}
              {spent ? (
                <>
                  {' '}
                  <Chip tone="danger">{t('servers.sampling.spent')}</Chip>
                </>
              ) : null}
            </p>
            <div
              className="progress budget-meter"
              role="meter"
              aria-label={t('servers.sampling.meterLabel', { server })}
              aria-valuemin={0}
              aria-valuemax={limits.sessionBudget}
              aria-valuenow={Math.min(used, limits.sessionBudget)}
              aria-valuetext={t('servers.sampling.meterText', {
                used: formatNumber(used),
                budget: formatNumber(limits.sessionBudget),
              })}
            >
              <div className={spent ? 'progress-fill budget-spent' : 'progress-fill'} style={{ width: `${share}%` }} />
            </div>
            <p className="fact-note">{t('servers.sampling.note')}</p>
            <div className="fact-actions">
              <Button size="sm" onClick={() => setEditing(true)}>
                {t('servers.sampling.change')}
              </Button>
              <Button size="sm" variant="ghost" disabled={used === 0} onClick={() => void resetUsage(server)}>
                {t('servers.sampling.reset')}
              </Button>
            </div>
          </>
        )}
      </dd>
    </>
  );
}

// Each field's problem with its code, worded as the form renders so a language switch follows.
type Errors = Partial<Record<keyof SamplingLimits, CodedText>>;

function SamplingLimitsForm({ usage, onDone }: { usage: SamplingUsage; onDone: () => void }) {
  const t = useT();
  const setLimits = useBerth((s) => s.setSamplingLimits);
  const defaults = useBerth((s) => s.samplingDefaults);
  const [maxTokens, setMaxTokens] = useState(String(usage.limits.maxTokens));
  const [budget, setBudget] = useState(String(usage.limits.sessionBudget));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);

  async function save(limits: SamplingLimits | null) {
    setFailure(undefined);
    if (limits !== null) {
      const parsed = SamplingLimitsSchema.safeParse(limits);
      if (!parsed.success) {
        const found: Errors = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0] as keyof SamplingLimits;
          found[key] ??= settingsIssueWords([issue]);
        }
        setErrors(found);
        return;
      }
    }
    setErrors({});
    setBusy(true);
    const result = await setLimits(usage.server, limits);
    setBusy(false);
    if (result.ok) onDone();
    else setFailure(result);
  }

  return (
    <form
      className="sampling-limits-form"
      aria-label={t('servers.sampling.formLabel', { server: usage.server })}
      onSubmit={(event) => {
        event.preventDefault();
        void save({ maxTokens: tokensOf(maxTokens), sessionBudget: tokensOf(budget) });
      }}
    >
      <Field
        label={t('servers.sampling.maxTokens')}
        hint={t('servers.sampling.maxTokensHint')}
        error={fieldText(errors.maxTokens)}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            inputMode="numeric"
            value={maxTokens}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setMaxTokens(e.target.value)}
          />
        )}
      </Field>
      <Field
        label={t('servers.sampling.budget')}
        hint={t('servers.sampling.budgetHint')}
        error={fieldText(errors.sessionBudget)}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            inputMode="numeric"
            value={budget}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setBudget(e.target.value)}
          />
        )}
      </Field>
      {failure !== undefined ? <InlineAlert>{failureText(failure)}</InlineAlert> : null}
      <LimitFormActions
        busy={busy}
        saveLabel={t('servers.sampling.save')}
        onCancel={onDone}
        reset={
          usage.custom
            ? {
                label: t('servers.sampling.useDefaults', {
                  maxTokens: formatNumber(defaults.maxTokens),
                  budget: formatNumber(defaults.sessionBudget),
                }),
                run: () => void save(null),
              }
            : undefined
        }
      />
    </form>
  );
}
