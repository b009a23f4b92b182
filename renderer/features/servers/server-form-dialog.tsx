import clsx from 'clsx';
import { Collapsible } from 'radix-ui';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LOG_LEVELS, type LogLevel, type ServerState } from '../../../shared/domain';
import { useShallow } from 'zustand/react/shallow';
import { useBerth } from '../../store';
import type { ServerFormRequest } from '../../store';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { Switch } from '../../ui/switch';
import { ChevronRightIcon } from '../../ui/icons';
import { describeApprovals, heldApprovals, holdsApprovals, identityChanges } from './approvals-model';
import { KeepApprovalsDialog, type ApprovalsAnswer } from './keep-approvals-dialog';
import { ArgsEditor, EnvEditor, HeadersEditor } from './list-editors';
import { OAuthFields } from './oauth-fields';
import { useFormSandbox, type SandboxChoice } from '../sandbox';
import {
  buildServerInput,
  emptyFormValues,
  errorsFromFailure,
  exampleFormValues,
  formValuesFromServer,
  newRowId,
  splitCommandLine,
  type FormErrors,
  type ShownErrors,
  type FormOutcome,
  type ServerFormValues,
} from './server-form-model';
import { Dialog, DialogBody, DialogClose, DialogDescription, DialogHeader } from '../../ui/dialog';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureWords, words, wordsTexts } from '../../i18n/words';

/** A valid form, with the sandbox choice of a local server. */
type ValidForm = Extract<FormOutcome, { ok: true }> & { sandbox?: SandboxChoice };

/** The add/edit dialog, opened through the UI slice so any screen can ask for it. */
export function ServerFormDialog() {
  const request = useBerth((s) => s.serverForm);
  const openServerForm = useBerth((s) => s.openServerForm);
  const editing = useBerth((s) => (request?.mode === 'edit' ? s.servers[request.name] : undefined));
  return (
    <Dialog
      open={request !== undefined}
      onOpenChange={(open) => !open && openServerForm(undefined)}
      className="dialog-wide"
      aria-describedby="server-form-description"
    >
      {request ? <ServerForm key={formKey(request)} request={request} editing={editing} /> : null}
    </Dialog>
  );
}

function formKey(request: ServerFormRequest): string {
  return request.mode === 'edit' ? `edit:${request.name}` : `add:${request.example ? 'example' : 'blank'}`;
}

function initialValues(request: ServerFormRequest, editing: ServerState | undefined): ServerFormValues {
  if (request.mode === 'edit' && editing) return formValuesFromServer(editing);
  return request.mode === 'add' && request.example ? exampleFormValues() : emptyFormValues();
}

function ServerForm({ request, editing }: { request: ServerFormRequest; editing: ServerState | undefined }) {
  const t = useT();
  const serverKinds = [
    { value: 'local', label: t('servers.form.kindLocal') },
    { value: 'remote', label: t('servers.form.kindRemote') },
  ] as const;
  const addServer = useBerth((s) => s.addServer);
  const updateServer = useBerth((s) => s.updateServer);
  const openServerForm = useBerth((s) => s.openServerForm);
  const selectServer = useBerth((s) => s.selectServer);
  const pushToast = useBerth((s) => s.pushToast);
  // Initial values are taken once: live updates of the server must not overwrite what the person is typing.
  const [values, setValues] = useState(() => initialValues(request, editing));
  const [errors, setErrors] = useState<FormErrors>({});
  const shown = wordsTexts(errors, t);
  const [saving, setSaving] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  /** A valid edit waiting for the person's answer about its approvals (new command or address). */
  const [askingApprovals, setAskingApprovals] = useState<{ outcome: ValidForm; approvals: string[] }>();
  const approvalSources = useBerth(useShallow((s) => ({ consentPolicies: s.consentPolicies, rootsView: s.rootsView })));
  const isEdit = request.mode === 'edit';
  const sandbox = useFormSandbox(isEdit ? editing : undefined);
  const formRef = useRef<HTMLFormElement>(null);

  // After a failed submit, bring the first problem into view and put the cursor there.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('.inline-alert, [aria-invalid="true"]');
    first?.scrollIntoView({ block: 'center' });
    if (first instanceof HTMLInputElement) first.focus();
  }, [errors]);

  const set = <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const built = buildServerInput(values, isEdit ? editing?.config : undefined);
    const sandboxChoice = values.kind === 'local' ? sandbox.check() : undefined;
    if (!built.ok) {
      setErrors(built.errors);
      if (Object.keys(built.errors).some((k) => k in ADVANCED_FIELDS)) setAdvancedOpen(true);
      return;
    }
    if (sandboxChoice === false) return;
    setErrors({});
    const outcome: ValidForm = sandboxChoice === undefined ? built : { ...built, sandbox: sandboxChoice };
    if (isEdit && editing !== undefined && identityChanges(editing.config, outcome.config)) {
      const held = heldApprovals(approvalSources, request.name);
      if (holdsApprovals(held)) {
        setAskingApprovals({ outcome, approvals: describeApprovals(held) });
        return;
      }
    }
    await save(outcome);
  }

  async function save(outcome: ValidForm, approvals?: ApprovalsAnswer) {
    setSaving(true);
    const result = isEdit
      ? await updateServer(
          request.name,
          outcome.name !== request.name ? outcome.name : undefined,
          outcome.config,
          approvals,
        )
      : outcome.sandbox === undefined
        ? await addServer(outcome.name, outcome.config)
        : await sandbox.add(outcome.name, outcome.config, outcome.sandbox);
    // An edit's sandbox is its own setting, saved once the config is (a change restarts a running server).
    const sandboxSaved =
      result.ok && isEdit && outcome.sandbox !== undefined
        ? await sandbox.saveEdit(result.value.name, outcome.sandbox)
        : undefined;
    setSaving(false);
    setAskingApprovals(undefined);
    if (!result.ok) {
      setErrors(errorsFromFailure(result, values));
      return;
    }
    if (sandboxSaved !== undefined && !sandboxSaved.ok) {
      setErrors({ form: words('servers.form.sandboxNotSaved', { message: failureWords(sandboxSaved) }) });
      return;
    }
    openServerForm(undefined);
    selectServer(result.value.name);
    pushToast({
      tone: 'success',
      title: words(isEdit ? 'servers.form.savedToast' : 'servers.form.addedToast', { name: result.value.name }),
    });
  }

  const remote = values.kind === 'remote';
  const pastedLine =
    !remote && values.args.length === 0 && /\s/.test(values.command.trim())
      ? splitCommandLine(values.command)
      : undefined;

  return (
    <form ref={formRef} className="server-form" onSubmit={submit} noValidate>
      <DialogHeader title={isEdit ? t('servers.form.editTitle', { name: request.name }) : t('servers.form.addTitle')} />
      <DialogDescription id="server-form-description">
        {t(remote ? 'servers.form.descRemote' : 'servers.form.descLocal', { edit: isEdit ? 'yes' : 'no' })}
      </DialogDescription>

      <DialogBody>
        {shown.form ? <InlineAlert>{shown.form}</InlineAlert> : null}
        <Field label={t('servers.form.name')} error={shown.name} hint={t('servers.form.nameHint')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              value={values.name}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              autoComplete="off"
              placeholder={t('servers.form.namePlaceholder')}
              autoFocus
              onChange={(e) => set('name', e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <span className="field-label" id="server-kind-label">
            {t('servers.form.whereItRuns')}
          </span>
          <Segmented
            value={values.kind}
            options={serverKinds}
            aria-labelledby="server-kind-label"
            onChange={(kind) => set('kind', kind)}
          />
        </div>
        {remote ? <RemoteFields values={values} set={set} errors={shown} /> : null}
        {!remote ? (
          <>
            <Field label={t('servers.form.command')} error={shown.command} hint={t('servers.form.commandHint')}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input mono"
                  value={values.command}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder="npx"
                  onChange={(e) => set('command', e.target.value)}
                />
              )}
            </Field>
            {pastedLine && pastedLine.length > 1 ? (
              <div className="inline-note">
                <span>
                  <T
                    id="servers.form.pastedLine"
                    values={{ command: pastedLine[0]!, count: pastedLine.length - 1 }}
                    components={{ code: <code /> }}
                  />
                </span>
                <Button
                  size="sm"
                  onClick={() =>
                    setValues((v) => ({
                      ...v,
                      command: pastedLine[0]!,
                      args: pastedLine.slice(1).map((value) => ({ id: newRowId(), value })),
                    }))
                  }
                >
                  {t('servers.form.split')}
                </Button>
              </div>
            ) : null}
            <ArgsEditor rows={values.args} onChange={(rows) => set('args', rows)} errors={shown} />
            <EnvEditor rows={values.env} onChange={(rows) => set('env', rows)} errors={shown} />
            <Field label={t('servers.form.cwd')} error={shown.cwd} hint={t('servers.form.cwdHint')}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input mono"
                  value={values.cwd}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  spellCheck={false}
                  placeholder={t('servers.form.cwdPlaceholder')}
                  onChange={(e) => set('cwd', e.target.value)}
                />
              )}
            </Field>
            {sandbox.section}
          </>
        ) : null}
        <Field label={t('servers.form.logLevel')} error={shown.logLevel} hint={t('servers.form.logLevelHint')}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className="input select-input narrow"
              value={values.logLevel}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => set('logLevel', e.target.value as LogLevel | '')}
            >
              <option value="">{t('servers.logLevel.default')}</option>
              {LOG_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {level}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="switch-field">
          <Switch
            id="server-enabled"
            checked={values.enabled}
            onCheckedChange={(v) => set('enabled', v)}
            label={t('servers.form.startWithBerth')}
          />
          <label htmlFor="server-enabled">
            <strong>{t('servers.form.startWithBerth')}</strong>
            <span className="field-hint">{t('servers.form.startWithBerthHint')}</span>
          </label>
        </div>
        <AdvancedSection values={values} set={set} errors={shown} open={advancedOpen} onOpenChange={setAdvancedOpen} />
      </DialogBody>

      <footer className="dialog-footer">
        <DialogClose>
          <Button variant="ghost">{t('servers.form.cancel')}</Button>
        </DialogClose>
        <Button type="submit" variant="primary" disabled={saving}>
          {t(saving ? 'servers.form.saving' : isEdit ? 'servers.form.saveChanges' : 'servers.form.add')}
        </Button>
      </footer>
      {askingApprovals && request.mode === 'edit' ? (
        <KeepApprovalsDialog
          name={request.name}
          remote={remote}
          approvals={askingApprovals.approvals}
          busy={saving}
          onAnswer={(answer) => void save(askingApprovals.outcome, answer)}
          onCancel={() => setAskingApprovals(undefined)}
        />
      ) : null}
    </form>
  );
}

/** The fields of a remote server: its address, the transport, headers and OAuth. */
function RemoteFields({
  values,
  set,
  errors,
}: {
  values: ServerFormValues;
  set: <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => void;
  errors: ShownErrors;
}) {
  const t = useT();
  return (
    <>
      <Field label={t('servers.form.url')} error={errors.url} hint={t('servers.form.urlHint')}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input mono"
            type="url"
            value={values.url}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            spellCheck={false}
            autoComplete="off"
            placeholder="https://mcp.example.com/mcp"
            onChange={(e) => set('url', e.target.value)}
          />
        )}
      </Field>
      <Field label={t('servers.form.transport')} error={errors.transport} hint={t('servers.form.transportHint')}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className="input select-input narrow"
            value={values.transport}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => set('transport', e.target.value as ServerFormValues['transport'])}
          >
            <option value="">{t('servers.form.transportAuto')}</option>
            <option value="http">{t('servers.form.transportHttp')}</option>
            <option value="sse">{t('servers.transport.sseLegacy')}</option>
          </select>
        )}
      </Field>
      <HeadersEditor rows={values.headers} onChange={(rows) => set('headers', rows)} errors={errors} />
      <OAuthFields values={values.oauth} onChange={(oauth) => set('oauth', oauth)} errors={errors} />
    </>
  );
}

// The form's keys (identifiers, not words) of the fields the Advanced section holds: an error there opens it.
const ADVANCED_FIELDS: Partial<Record<keyof ServerFormValues, true>> = {
  startupSeconds: true,
  requestSeconds: true,
  maxTotalSeconds: true,
  restartEnabled: true,
  maxRestarts: true,
  initialDelaySeconds: true,
  maxDelaySeconds: true,
};
const RESTART_ENABLED = 'restartEnabled';

interface AdvancedProps {
  values: ServerFormValues;
  set: <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => void;
  errors: ShownErrors;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function AdvancedSection({ values, set, errors, open, onOpenChange }: AdvancedProps) {
  const t = useT();
  const number = ({
    key,
    label,
    hint,
  }: {
    key:
      | 'startupSeconds'
      | 'requestSeconds'
      | 'maxTotalSeconds'
      | 'maxRestarts'
      | 'initialDelaySeconds'
      | 'maxDelaySeconds';
    label: string;
    hint: string;
  }) => (
    <Field label={label} error={errors[key]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input"
          inputMode="decimal"
          value={values[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  return (
    <Collapsible.Root open={open} onOpenChange={onOpenChange} className="advanced">
      <Collapsible.Trigger asChild>
        <button type="button" className={clsx('advanced-trigger', open && 'open')}>
          <ChevronRightIcon />
          {t('servers.form.advanced')}
        </button>
      </Collapsible.Trigger>
      <Collapsible.Content className="advanced-body">
        <div className="field-grid three">
          {number({
            key: 'startupSeconds',
            label: t('servers.form.startupTimeout'),
            hint: t('servers.form.startupTimeoutHint'),
          })}
          {number({
            key: 'requestSeconds',
            label: t('servers.form.requestTimeout'),
            hint: t('servers.form.requestTimeoutHint'),
          })}
          {number({
            key: 'maxTotalSeconds',
            label: t('servers.form.longestCall'),
            hint: t('servers.form.longestCallHint'),
          })}
        </div>
        <div className="switch-field">
          <Switch
            id="restart-enabled"
            checked={values.restartEnabled}
            onCheckedChange={(v) => set(RESTART_ENABLED, v)}
            label={t('servers.form.restartAfterCrash')}
          />
          <label htmlFor="restart-enabled">
            <strong>{t('servers.form.restartAfterCrash')}</strong>
            <span className="field-hint">{t('servers.form.restartAfterCrashHint')}</span>
          </label>
        </div>
        <div className="field-grid three">
          {number({
            key: 'maxRestarts',
            label: t('servers.form.giveUpAfter'),
            hint: t('servers.form.giveUpAfterHint'),
          })}
          {number({
            key: 'initialDelaySeconds',
            label: t('servers.form.firstDelay'),
            hint: t('servers.form.firstDelayHint'),
          })}
          {number({
            key: 'maxDelaySeconds',
            label: t('servers.form.longestDelay'),
            hint: t('servers.form.longestDelayHint'),
          })}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
