import { useState } from 'react';
import { SAMPLING_SESSION_NOTE, SamplingLimitsSchema } from '../../../shared/domain/sampling-limits';
import type { SamplingLimits, SamplingUsage } from '../../../shared/domain/sampling-limits';
import { samplingUsageOf, useBerth } from '../../store';
import { Button, Chip, Field, InlineAlert } from '../../ui/controls';
import { LimitFormActions, tokensOf } from './limit-form';

/**
 * The Overview's sampling facts: the cap on one request's max tokens and the
 * token budget for this Berth session, with what the server has spent, and
 * the place to change or reset them.
 */
export function SamplingLimitsFacts({ server }: { server: string }) {
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
      <dt>Sampling limits</dt>
      <dd className="sampling-limits" data-testid="sampling-limits">
        {editing ? (
          <SamplingLimitsForm usage={usage} onDone={() => setEditing(false)} />
        ) : (
          <>
            <p className="sampling-limit-line">
              At most <strong>{limits.maxTokens.toLocaleString()}</strong> max tokens per request
              {usage.custom ? null : <span className="muted"> (Berth’s default)</span>}
            </p>
            <p className="sampling-limit-line" data-testid="sampling-budget">
              <strong>{used.toLocaleString()}</strong> of {limits.sessionBudget.toLocaleString()} budget tokens used
              this session
              {inFlight > 0 ? (
                <span className="muted"> ({inFlight.toLocaleString()} held for a request in progress)</span>
              ) : null}
              {spent ? (
                <>
                  {' '}
                  <Chip tone="danger">budget spent: requests are refused</Chip>
                </>
              ) : null}
            </p>
            <div
              className="progress budget-meter"
              role="meter"
              aria-label={`Sampling budget used by ${server}`}
              aria-valuemin={0}
              aria-valuemax={limits.sessionBudget}
              aria-valuenow={Math.min(used, limits.sessionBudget)}
              aria-valuetext={`${used.toLocaleString()} of ${limits.sessionBudget.toLocaleString()} tokens`}
            >
              <div className={spent ? 'progress-fill budget-spent' : 'progress-fill'} style={{ width: `${share}%` }} />
            </div>
            <p className="fact-note">
              Input and output tokens the model reported for this server’s sampling requests. {SAMPLING_SESSION_NOTE}
            </p>
            <div className="fact-actions">
              <Button size="sm" onClick={() => setEditing(true)}>
                Change limits
              </Button>
              <Button size="sm" variant="ghost" disabled={used === 0} onClick={() => void resetUsage(server)}>
                Reset budget
              </Button>
            </div>
          </>
        )}
      </dd>
    </>
  );
}

type Errors = Partial<Record<keyof SamplingLimits, string>>;

function SamplingLimitsForm({ usage, onDone }: { usage: SamplingUsage; onDone: () => void }) {
  const setLimits = useBerth((s) => s.setSamplingLimits);
  const defaults = useBerth((s) => s.samplingDefaults);
  const [maxTokens, setMaxTokens] = useState(String(usage.limits.maxTokens));
  const [budget, setBudget] = useState(String(usage.limits.sessionBudget));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function save(limits: SamplingLimits | null) {
    setFailure(undefined);
    if (limits !== null) {
      const parsed = SamplingLimitsSchema.safeParse(limits);
      if (!parsed.success) {
        const found: Errors = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0] as keyof SamplingLimits;
          found[key] ??= issue.message;
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
    else setFailure(result.message);
  }

  return (
    <form
      className="sampling-limits-form"
      aria-label={`Sampling limits of ${usage.server}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save({ maxTokens: tokensOf(maxTokens), sessionBudget: tokensOf(budget) });
      }}
    >
      <Field label="Max tokens per request" hint="A server asking for more gets this many." error={errors.maxTokens}>
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
        label="Token budget per Berth session"
        hint="Requests are refused once the server has used this many."
        error={errors.sessionBudget}
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
      {failure !== undefined ? <InlineAlert>{failure}</InlineAlert> : null}
      <LimitFormActions
        busy={busy}
        saveLabel="Save limits"
        onCancel={onDone}
        reset={
          usage.custom
            ? {
                label: `Use Berth’s defaults (${defaults.maxTokens.toLocaleString()} per request, ${defaults.sessionBudget.toLocaleString()} per session)`,
                run: () => void save(null),
              }
            : undefined
        }
      />
    </form>
  );
}
