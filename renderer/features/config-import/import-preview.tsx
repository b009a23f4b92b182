import clsx from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import type { ImportCandidateView, ImportInput } from '../../../shared/contract/config-import';
import { describeProblem } from '../config/problem-text';
import type { ShownImportPreview } from '../../store/config-import-types';
import { useBerth } from '../../store';
import { Button, Chip, Field, InlineAlert } from '../../ui/controls';
import { KeyIcon, ShieldIcon, WarningIcon } from '../../ui/icons';
import { LaunchDetails } from '../launch-review/launch-details';
import { RiskConfirm, riskKeys } from '../launch-review/risk-confirm';
import { useImportSandbox } from '../sandbox';
import {
  FORMAT_LABELS,
  blockedReason,
  buildApply,
  checkedCandidates,
  errorsFromFailures,
  initialChoices,
  neededInputs,
  needsWorkspaceFolder,
  unconfirmed,
  type ImportChoices,
  localErrorTexts,
  type LocalErrors,
  type RowChoice,
} from './import-model';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';
import { failureWords, words } from '../../i18n/words';

/** The preview table, the values the file asks for, and the Import button. */
export function ImportPreviewStep({ shown }: { shown: ShownImportPreview }) {
  const t = useT();
  const { preview } = shown;
  const applyImport = useBerth((s) => s.applyImport);
  const clearImportPreview = useBerth((s) => s.clearImportPreview);
  const openInteropDialog = useBerth((s) => s.openInteropDialog);
  const [choices, setChoices] = useState<ImportChoices>(() => initialChoices(preview));
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [workspaceFolder, setWorkspaceFolder] = useState('');
  const [said, setErrors] = useState<LocalErrors>({});
  // Worded as the step renders, so a language switch re-words problems already shown.
  const errors = localErrorTexts(said, t);
  const [busy, setBusy] = useState(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const backRef = useRef<HTMLButtonElement>(null);
  const unreadable = preview.servers.length === 0;
  const count = checkedCandidates(preview, choices).length;
  const inputs = neededInputs(preview, choices);
  const importSandbox = useImportSandbox(
    checkedCandidates(preview, choices).filter((candidate) => candidate.kind === 'stdio').length,
  );

  // The button that opened this step is gone: keyboard focus continues at the first row (or Back).
  useEffect(() => {
    const first = bodyRef.current?.querySelector<HTMLInputElement>('input[type="checkbox"]:not(:disabled)');
    (first ?? backRef.current)?.focus();
  }, []);

  // After a refused import, bring the first problem into view.
  useEffect(() => {
    if (Object.keys(said).length === 0) return;
    bodyRef.current?.querySelector('[role="alert"]')?.scrollIntoView({ block: 'center' });
  }, [said]);

  const setChoice = (sourceName: string, change: Partial<ImportChoices[string]>) =>
    setChoices((current) => {
      const previous = current[sourceName];
      return previous === undefined ? current : { ...current, [sourceName]: { ...previous, ...change } };
    });

  async function submit() {
    const built = buildApply(preview, choices, answers, workspaceFolder);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await applyImport({ ...built.input, sandbox: importSandbox.sandbox });
    setBusy(false);
    if (!result.ok) setErrors({ form: [failureWords(result)] });
    else if (!result.value.imported)
      setErrors({
        ...errorsFromFailures(result.value.failures),
        form: [words('config-import.preview.nothingImported')],
      });
  }

  const source =
    shown.source.kind === 'location'
      ? (preview.path ?? '')
      : t('config-import.preview.pasted', { format: t(FORMAT_LABELS[shown.source.format]) });
  return (
    <>
      <div className="dialog-body import-preview" ref={bodyRef}>
        <p className="import-source-line">
          <T
            id="config-import.preview.from"
            values={{ source }}
            components={{ muted: <span className="muted" />, mono: <span className="mono" /> }}
          />
        </p>
        {errors.form ? <InlineAlert>{errors.form}</InlineAlert> : null}
        {preview.problems.length > 0 ? (
          <div
            className={clsx('import-problems', unreadable ? 'inline-alert' : 'inline-alert warn')}
            role={unreadable ? 'alert' : undefined}
          >
            <WarningIcon />
            <div>
              <p>{t(unreadable ? 'config-import.preview.unreadable' : 'config-import.preview.someSkipped')}</p>
              <ul>
                {preview.problems.map((problem, index) => (
                  <li key={index}>{describeProblem(problem, t)}</li>
                ))}
              </ul>
            </div>
          </div>
        ) : null}
        {unreadable ? null : (
          <p className="inline-note import-off-note">
            <ShieldIcon />
            <span>
              <T id="config-import.preview.addedOff" components={{ strong: <strong /> }} />
            </span>
          </p>
        )}
        {unreadable ? null : (
          <div className="table-scroll import-table-wrap">
            <table className="data-table import-table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="sr-only">{t('config-import.preview.colImport')}</span>
                  </th>
                  <th scope="col">{t('config-import.preview.colServer')}</th>
                  <th scope="col">{t('config-import.preview.colName')}</th>
                  <th scope="col">{t('config-import.preview.colNotes')}</th>
                </tr>
              </thead>
              <tbody>
                {preview.servers.map((candidate) => (
                  <CandidateRow
                    key={candidate.sourceName}
                    candidate={candidate}
                    choice={choices[candidate.sourceName] ?? { checked: false, name: candidate.name }}
                    error={errors[candidate.sourceName]}
                    disabled={busy}
                    onChange={(change) => setChoice(candidate.sourceName, change)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {inputs.length > 0 ? (
          <section className="import-section" aria-label={t('config-import.preview.inputs')}>
            <h3 className="import-section-title">{t('config-import.preview.inputs')}</h3>
            <div className="field-grid">
              {inputs.map((input) => (
                <InputField
                  key={input.id}
                  input={input}
                  value={answers[input.id] ?? ''}
                  error={errors[`inputs.${input.id}`]}
                  onChange={(value) => setAnswers((a) => ({ ...a, [input.id]: value }))}
                />
              ))}
            </div>
          </section>
        ) : null}
        {importSandbox.section}
        {needsWorkspaceFolder(preview, choices) ? (
          <Field
            label={t('config-import.found.folder')}
            error={errors.workspaceFolder}
            hint={t('config-import.preview.folderHint', { variable: '${workspaceFolder}' })}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input mono"
                value={workspaceFolder}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                spellCheck={false}
                onChange={(e) => setWorkspaceFolder(e.target.value)}
              />
            )}
          </Field>
        ) : null}
      </div>
      <footer className="dialog-footer">
        <Button
          ref={backRef}
          variant={unreadable ? 'primary' : 'ghost'}
          className="footer-start"
          onClick={clearImportPreview}
          disabled={busy}
        >
          {t('config-import.preview.back')}
        </Button>
        <Button variant="ghost" onClick={() => openInteropDialog(undefined)} disabled={busy}>
          {t('config-import.preview.cancel')}
        </Button>
        {unreadable ? null : (
          <Button
            variant="primary"
            onClick={() => void submit()}
            disabled={
              busy ||
              count === 0 ||
              checkedCandidates(preview, choices).some((candidate) => unconfirmed(candidate, choices))
            }
          >
            {busy ? t('config-import.preview.importing') : t('config-import.preview.import', { count })}
          </Button>
        )}
      </footer>
    </>
  );
}

function CandidateRow({
  candidate,
  choice,
  error,
  disabled,
  onChange,
}: {
  candidate: ImportCandidateView;
  choice: RowChoice;
  error: string | undefined;
  disabled: boolean;
  onChange: (change: Partial<RowChoice>) => void;
}) {
  const t = useT();
  const blocked = blockedReason(candidate);
  const errorId = useId();
  const notesId = useId();
  return (
    <>
      <tr className={clsx(blocked !== undefined && 'blocked', error && 'has-error')} data-source={candidate.sourceName}>
        <td className="import-check">
          <input
            type="checkbox"
            checked={choice.checked && blocked === undefined}
            disabled={disabled || blocked !== undefined}
            aria-label={t('config-import.row.import', { server: candidate.sourceName })}
            aria-describedby={notesId}
            onChange={(event) => onChange({ checked: event.target.checked })}
          />
        </td>
        <td className="import-server">
          <span className="import-server-name">{candidate.sourceName}</span>
        </td>
        <td className="import-name">
          {blocked !== undefined ? (
            <span className="muted">{t('config-import.row.notImportable')}</span>
          ) : (
            <input
              className="input"
              value={choice.name}
              disabled={disabled || !choice.checked}
              aria-label={t('config-import.row.name', { server: candidate.sourceName })}
              aria-invalid={error !== undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => onChange({ name: event.target.value })}
            />
          )}
        </td>
        <td id={notesId}>
          <div className="import-notes">
            {candidate.duplicateOf ? (
              <span className="import-note">
                <Chip tone="warning">{t('config-import.row.duplicate')}</Chip>{' '}
                <HostMessageText message={candidate.duplicateOf.hostMessage} fallback={candidate.duplicateOf.message} />
              </span>
            ) : null}
            {blocked !== undefined ? (
              <span className="import-note">
                <Chip>{t('config-import.row.remote')}</Chip> {blocked}
              </span>
            ) : null}
            {candidate.secretEnvKeys.length > 0 ? (
              <span className="import-note">
                <KeyIcon /> {t('config-import.row.secret', { keys: candidate.secretEnvKeys.join(', ') })}
              </span>
            ) : null}
            {candidate.warnings.length > 0 ? (
              <span className="import-note">
                <Chip tone="danger">{t('config-import.row.checkFirst')}</Chip>{' '}
                {t('config-import.row.toLookAt', { count: candidate.warnings.length })}
              </span>
            ) : null}
            {candidate.duplicateOf === undefined &&
            blocked === undefined &&
            candidate.secretEnvKeys.length === 0 &&
            candidate.warnings.length === 0 ? (
              <span className="muted">{t('config-import.row.new')}</span>
            ) : null}
          </div>
        </td>
      </tr>
      <tr
        className={clsx('import-details-row', error && 'has-error')}
        aria-label={t('config-import.row.details', { server: candidate.sourceName })}
        data-details={candidate.sourceName}
      >
        <td />
        <td colSpan={3}>
          <LaunchDetails launch={candidate} label={candidate.sourceName} />
          <RiskConfirm
            keys={riskKeys(candidate.warnings)}
            checked={choice.confirmed === true}
            disabled={disabled || !choice.checked}
            onChange={(confirmed) => onChange({ confirmed })}
          />
        </td>
      </tr>
      {error ? (
        <tr className="import-row-error">
          <td />
          <td colSpan={3} id={errorId} role="alert">
            {error}
          </td>
        </tr>
      ) : null}
    </>
  );
}

function InputField({
  input,
  value,
  error,
  onChange,
}: {
  input: ImportInput;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const hint = input.password
    ? t(input.hasDefault ? 'config-import.input.secretWithDefault' : 'config-import.input.secret')
    : input.hasDefault && input.type === 'promptString'
      ? t('config-import.input.default', { value: input.default ?? '' })
      : undefined;
  return (
    <Field label={input.description} error={error} hint={hint}>
      {({ id, describedBy, invalid }) =>
        input.type === 'pickString' ? (
          <select
            id={id}
            className="input select-input"
            value={value === '' ? (input.default ?? '') : value}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => onChange(e.target.value)}
          >
            {input.default === undefined ? <option value="">{t('config-import.input.choose')}</option> : null}
            {(input.options ?? []).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            className="input"
            type={input.password ? 'password' : 'text'}
            autoComplete={input.password ? 'new-password' : 'off'}
            spellCheck={false}
            value={value}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}
