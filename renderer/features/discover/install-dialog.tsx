import { useState } from 'react';
import type { InstallField, InstallOption, LaunchPlan, RegistryEntryDetails } from '../../../shared/contract/registry';
import { packageSourceKey } from '../../../shared/domain/launch-confirm';
import { useBerth } from '../../store';
import { LaunchDetails } from '../launch-review/launch-details';
import { useRiskConfirmation } from '../launch-review/risk-confirm';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { KeyIcon, ShieldIcon, WarningIcon } from '../../ui/icons';
import { declaredDomains, useReviewSandbox } from '../sandbox';
import { Dialog, DialogBody, DialogDescription, DialogHeader } from '../../ui/dialog';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';
import { T } from '../../i18n/t';
import { failureWords, words, wordsTexts, type Words } from '../../i18n/words';
import type { HostMessage } from '../../../shared/domain/host-message';

interface Reviewed {
  reviewId: string;
  serverName: string;
  plan: LaunchPlan;
}

/** A name Berth accepts, from the registry name's last part (io.github.x/weather-mcp → weather-mcp). */
export function suggestedName(registryName: string): string {
  const last = registryName.split('/').pop() ?? registryName;
  const cleaned = last.replace(/[^A-Za-z0-9 _.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return (cleaned === '' ? 'server' : cleaned).slice(0, 64);
}

/** The host's refusals by field; they carry no code yet, so their English is shown as the host wrote it. */
function fieldErrors(errors: readonly { field: string; message: string }[]): Record<string, Words> {
  return Object.fromEntries(errors.map((error) => [error.field, failureWords(error)]));
}

/**
 * Install one option of an entry: a form for what it needs, then the review
 * of exactly what will run (the same one a config import shows). Nothing is
 * saved or started before "Install and start".
 */
export function InstallDialog({
  registry,
  entry,
  option,
  onClose,
  onInstalled,
}: {
  registry: string;
  entry: RegistryEntryDetails;
  option: InstallOption;
  onClose: () => void;
  onInstalled: () => void;
}) {
  const transport = useBerth((s) => s.appsTransport);
  const pushToast = useBerth((s) => s.pushToast);
  const [serverName, setServerName] = useState(() => suggestedName(entry.name));
  const [values, setValues] = useState<Record<string, string>>({});
  const [said, setErrors] = useState<Record<string, Words>>({});
  const [reviewed, setReviewed] = useState<Reviewed>();
  const [busy, setBusy] = useState(false);
  // A package from a registry other than the public one is installed only after its own yes (reset by each review).
  const [sourceConfirmed, setSourceConfirmed] = useState(false);
  const title = entry.title ?? entry.name;
  const t = useT();
  // Worded as the dialog renders, so a language switch re-words errors already shown.
  const errors = wordsTexts(said, t);
  const local = reviewed?.plan.kind === 'stdio';
  const sandbox = useReviewSandbox(
    local
      ? declaredDomains({ registryType: option.registryType, args: reviewed.plan.args, env: reviewed.plan.env })
      : [],
    reviewed?.plan.sandboxDefault,
  );
  const needsSourceYes = reviewed?.plan.packageSource !== undefined && !sourceConfirmed;
  const risks = useRiskConfirmation(reviewed?.plan.warnings, busy);

  async function review() {
    setBusy(true);
    const result = await transport.call('registry.review', {
      registry,
      name: entry.name,
      version: entry.version,
      option: option.index,
      serverName,
      values,
    });
    setBusy(false);
    if (!result.ok) return setErrors({ form: failureWords(result) });
    if (!result.value.ready) return setErrors(fieldErrors(result.value.errors));
    setErrors({});
    setSourceConfirmed(false);
    setReviewed({ reviewId: result.value.reviewId, serverName: result.value.serverName, plan: result.value.plan });
  }

  async function install(current: Reviewed) {
    if (current.plan.packageSource !== undefined && !sourceConfirmed) return;
    const choice = current.plan.kind === 'stdio' ? sandbox.check() : undefined;
    if (choice === false) return;
    setBusy(true);
    const confirmed = [
      ...risks.keys,
      ...(current.plan.packageSource === undefined ? [] : [packageSourceKey(current.plan.packageSource.url)]),
    ];
    const result = await transport.call('registry.install', {
      reviewId: current.reviewId,
      ...(choice === undefined ? {} : { sandbox: choice }),
      ...(confirmed.length === 0 ? {} : { confirmed }),
    });
    setBusy(false);
    if (!result.ok) return setErrors({ form: failureWords(result) });
    if (!result.value.installed) {
      // A refused confirmation or sandbox choice keeps the review open: the person can read it again and change it.
      if (!result.value.errors.every((error) => error.field === 'confirmed' || error.field === 'sandbox'))
        setReviewed(undefined);
      return setErrors(fieldErrors(result.value.errors));
    }
    pushToast({
      tone: 'success',
      title: words('discover.install.done', { server: result.value.server }),
      message: words('discover.install.starting'),
    });
    onInstalled();
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      className="dialog-wide install-dialog"
      aria-describedby="install-dialog-description"
      // Start in the form, not on the close button: its tooltip would open and take the first Escape.
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        const content = event.currentTarget as HTMLElement | null;
        (content?.querySelector<HTMLElement>('.install-form input, .install-form select') ?? content)?.focus();
      }}
    >
      <DialogHeader
        title={
          reviewed === undefined ? t('discover.install.title', { title }) : t('discover.install.reviewTitle', { title })
        }
      />
      <DialogDescription id="install-dialog-description">
        {reviewed === undefined
          ? t('discover.install.description', {
              kind: option.kind === 'remote' ? option.transport : (option.registryType ?? ''),
              option: option.label,
            })
          : t('discover.install.reviewDescription')}
      </DialogDescription>
      <DialogBody>
        {errors.form !== undefined ? <InlineAlert>{errors.form}</InlineAlert> : null}
        {errors.option !== undefined ? <InlineAlert>{errors.option}</InlineAlert> : null}
        {errors.url !== undefined ? <InlineAlert>{errors.url}</InlineAlert> : null}
        {errors.confirmed !== undefined ? <InlineAlert>{errors.confirmed}</InlineAlert> : null}
        {reviewed === undefined ? (
          <form
            id="install-form"
            className="install-form"
            onSubmit={(event) => {
              event.preventDefault();
              void review();
            }}
          >
            <Field label={t('discover.install.name')} error={errors.serverName}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input"
                  value={serverName}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => setServerName(event.target.value)}
                />
              )}
            </Field>
            {option.fields.map((field) => (
              <InstallFieldInput
                key={field.id}
                field={field}
                value={values[field.id] ?? ''}
                error={errors[field.id]}
                onChange={(value) => setValues((current) => ({ ...current, [field.id]: value }))}
              />
            ))}
          </form>
        ) : (
          <>
            <ReviewStep
              reviewed={reviewed}
              deprecated={
                entry.status !== 'active'
                  ? (entry.statusMessage ?? t('discover.install.versionStatus', { status: entry.status }))
                  : undefined
              }
            />
            {reviewed.plan.packageSource !== undefined ? (
              <PackageSourceConfirm
                source={reviewed.plan.packageSource}
                confirmed={sourceConfirmed}
                onChange={setSourceConfirmed}
              />
            ) : null}
            {entry.postInstallInstructions !== undefined ? (
              <PublisherInstructions text={entry.postInstallInstructions} />
            ) : null}
            {risks.section}
            {errors.sandbox !== undefined ? <InlineAlert>{errors.sandbox}</InlineAlert> : null}
            {local ? sandbox.section : null}
          </>
        )}
      </DialogBody>
      <footer className="dialog-footer">
        {reviewed === undefined ? (
          <>
            <Button variant="ghost" onClick={onClose} disabled={busy}>
              {t('discover.install.cancel')}
            </Button>
            <Button variant="primary" type="submit" form="install-form" disabled={busy}>
              {busy ? t('discover.install.checking') : t('discover.install.review')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="ghost" className="footer-start" onClick={() => setReviewed(undefined)} disabled={busy}>
              {t('discover.install.back')}
            </Button>
            <Button variant="ghost" onClick={onClose} disabled={busy}>
              {t('discover.install.cancel')}
            </Button>
            <Button
              variant="primary"
              onClick={() => void install(reviewed)}
              disabled={busy || needsSourceYes || !risks.confirmed}
            >
              {busy ? t('discover.install.installing') : t('discover.install.installAndStart')}
            </Button>
          </>
        )}
      </footer>
    </Dialog>
  );
}

function ReviewStep({ reviewed, deprecated }: { reviewed: Reviewed; deprecated: string | undefined }) {
  const { plan } = reviewed;
  const secrets = [...plan.secretEnvKeys, ...plan.secretHeaderNames];
  const t = useT();
  return (
    <section aria-label={t('discover.install.runs', { server: reviewed.serverName })} className="install-review">
      <p className="inline-note">
        <ShieldIcon />
        <span>
          <T
            id="discover.install.addedAs"
            values={{ server: reviewed.serverName }}
            components={{ strong: <strong /> }}
          />
        </span>
      </p>
      {deprecated !== undefined ? (
        <div className="inline-alert warn" role="note">
          <WarningIcon />
          <span>{t('discover.install.deprecated', { reason: deprecated })}</span>
        </div>
      ) : null}
      {plan.runtimeMissing !== undefined ? (
        <div className="inline-alert warn" role="note">
          <WarningIcon />
          <span>
            <T
              id="discover.install.runtimeMissing"
              values={{ command: plan.command ?? '', detail: plan.runtimeMissing }}
              components={{ strong: <strong /> }}
            />
          </span>
        </div>
      ) : null}
      <LaunchDetails
        launch={plan}
        label={reviewed.serverName}
        extra={
          plan.kind === 'remote' && plan.transport !== undefined ? (
            <>
              <dt>{t('discover.install.transport')}</dt>
              <dd>{plan.transport === 'sse' ? t('discover.install.sse') : t('discover.install.streamable')}</dd>
            </>
          ) : null
        }
      />
      {secrets.length > 0 ? (
        <p className="inline-note">
          <KeyIcon />
          <span>{t('discover.install.secrets', { names: secrets.join(', ') })}</span>
        </p>
      ) : null}
    </section>
  );
}

/** The package's registry is not its type's public one: said with the address, and a yes of its own before Install. */
function PackageSourceConfirm({
  source,
  confirmed,
  onChange,
}: {
  source: { url: string; message: string; hostMessage?: HostMessage | undefined };
  confirmed: boolean;
  onChange: (confirmed: boolean) => void;
}) {
  const t = useT();
  return (
    <div className="inline-alert warn" role="note" data-testid="package-source">
      <WarningIcon />
      <div>
        <p>
          <T
            id="discover.install.source"
            values={{ url: source.url }}
            components={{ mono: <span className="mono" /> }}
          />
        </p>
        <p>
          <HostMessageText message={source.hostMessage} fallback={source.message} />
        </p>
        <label className="check-field">
          <input type="checkbox" checked={confirmed} onChange={(event) => onChange(event.target.checked)} />
          <span>{t('discover.install.sourceConfirm')}</span>
        </label>
      </div>
    </div>
  );
}

/** The publisher's after-install steps: text to read, which Berth never runs. */
function PublisherInstructions({ text }: { text: string }) {
  const t = useT();
  return (
    <section className="install-instructions" aria-labelledby="install-instructions-title">
      <h3 id="install-instructions-title" className="bundle-section-title">
        {t('discover.install.instructions')}
      </h3>
      <p className="field-hint">{t('discover.install.instructionsHint')}</p>
      <pre className="install-instructions-text" data-testid="post-install-instructions">
        {text}
      </pre>
    </section>
  );
}

function InstallFieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: InstallField;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const hint =
    [
      field.description,
      field.repeated === true ? t('discover.install.field.repeated') : undefined,
      field.secret ? t('discover.install.field.secret') : undefined,
      !field.required && field.default === undefined ? t('discover.install.field.optional') : undefined,
    ]
      .filter(Boolean)
      .join(' ') || undefined;
  const label = field.required ? t('discover.install.field.required', { label: field.label }) : field.label;
  const choices = field.choices ?? (field.format === 'boolean' ? ['true', 'false'] : undefined);
  return (
    <Field label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) =>
        choices !== undefined ? (
          <select
            id={id}
            className="input select-input"
            value={value === '' ? (field.default ?? '') : value}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(event.target.value)}
          >
            {field.default === undefined ? <option value="">{t('discover.install.field.choose')}</option> : null}
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
        ) : field.repeated === true && !field.secret ? (
          <textarea
            id={id}
            className="input"
            rows={3}
            spellCheck={false}
            placeholder={field.placeholder ?? field.default}
            value={value}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            id={id}
            className="input"
            type={field.secret ? 'password' : field.format === 'number' ? 'number' : 'text'}
            autoComplete={field.secret ? 'new-password' : 'off'}
            spellCheck={false}
            placeholder={field.placeholder ?? field.default}
            value={value}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </Field>
  );
}
