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
  type FormOutcome,
  type ServerFormValues,
} from './server-form-model';
import { Dialog, DialogBody, DialogClose, DialogDescription, DialogHeader } from '../../ui/dialog';

/** A valid form, with the sandbox choice of a local server. */
type ValidForm = Extract<FormOutcome, { ok: true }> & { sandbox?: SandboxChoice };

const SERVER_KINDS = [
  { value: 'local', label: 'Local command' },
  { value: 'remote', label: 'Remote URL' },
] as const;

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
  const addServer = useBerth((s) => s.addServer);
  const updateServer = useBerth((s) => s.updateServer);
  const openServerForm = useBerth((s) => s.openServerForm);
  const selectServer = useBerth((s) => s.selectServer);
  const pushToast = useBerth((s) => s.pushToast);
  // Initial values are taken once: live updates of the server must not overwrite what the person is typing.
  const [values, setValues] = useState(() => initialValues(request, editing));
  const [errors, setErrors] = useState<FormErrors>({});
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
      if (Object.keys(built.errors).some((k) => ADVANCED_FIELDS.has(k))) setAdvancedOpen(true);
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
      setErrors({ form: `Saved, but the sandbox setting was not: ${sandboxSaved.message}` });
      return;
    }
    openServerForm(undefined);
    selectServer(result.value.name);
    pushToast({ tone: 'success', title: isEdit ? `Saved “${result.value.name}”` : `Added “${result.value.name}”` });
  }

  const remote = values.kind === 'remote';
  const pastedLine =
    !remote && values.args.length === 0 && /\s/.test(values.command.trim())
      ? splitCommandLine(values.command)
      : undefined;

  return (
    <form ref={formRef} className="server-form" onSubmit={submit} noValidate>
      <DialogHeader title={isEdit ? `Edit “${request.name}”` : 'Add an MCP server'} />
      <DialogDescription id="server-form-description">
        {remote
          ? 'Berth connects to the address below over HTTP (Streamable HTTP, or the older HTTP+SSE) using the Model Context Protocol.'
          : 'Berth starts the command below and talks to it over stdin/stdout using the Model Context Protocol.'}
        {isEdit
          ? ' Saving restarts the server if it is running; a new log level alone is applied without a restart.'
          : ''}
      </DialogDescription>

      <DialogBody>
        {errors.form ? <InlineAlert>{errors.form}</InlineAlert> : null}
        <Field label="Name" error={errors.name} hint="Shown in Berth and in logs.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              value={values.name}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              autoComplete="off"
              placeholder="e.g. github"
              autoFocus
              onChange={(e) => set('name', e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <span className="field-label" id="server-kind-label">
            Where it runs
          </span>
          <Segmented
            value={values.kind}
            options={SERVER_KINDS}
            aria-labelledby="server-kind-label"
            onChange={(kind) => set('kind', kind)}
          />
        </div>
        {remote ? <RemoteFields values={values} set={set} errors={errors} /> : null}
        {!remote ? (
          <>
            <Field
              label="Command"
              error={errors.command}
              hint="The program to run, e.g. npx, uvx, node, docker or an absolute path. Berth looks it up on your login shell’s PATH."
            >
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
                  This looks like a whole command line. Use <code>{pastedLine[0]}</code> as the command and the rest as{' '}
                  {pastedLine.length - 1} argument{pastedLine.length === 2 ? '' : 's'}?
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
                  Split it
                </Button>
              </div>
            ) : null}
            <ArgsEditor rows={values.args} onChange={(rows) => set('args', rows)} errors={errors} />
            <EnvEditor rows={values.env} onChange={(rows) => set('env', rows)} errors={errors} />
            <Field
              label="Working directory"
              error={errors.cwd}
              hint="Optional. Where the server runs; without one it runs in a folder of its own inside Berth’s data folder."
            >
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input mono"
                  value={values.cwd}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  spellCheck={false}
                  placeholder="/path/to/project"
                  onChange={(e) => set('cwd', e.target.value)}
                />
              )}
            </Field>
            {sandbox.section}
          </>
        ) : null}
        <Field
          label="Log level"
          error={errors.logLevel}
          hint="The least severe log messages the server should send. Remembered across restarts; servers without logging ignore it."
        >
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className="input select-input narrow"
              value={values.logLevel}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => set('logLevel', e.target.value as LogLevel | '')}
            >
              <option value="">Server default</option>
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
            label="Start with Berth"
          />
          <label htmlFor="server-enabled">
            <strong>Start with Berth</strong>
            <span className="field-hint">
              Start this server whenever Berth starts, and now when you save. Off: it stays stopped until you start it.
            </span>
          </label>
        </div>
        <AdvancedSection values={values} set={set} errors={errors} open={advancedOpen} onOpenChange={setAdvancedOpen} />
      </DialogBody>

      <footer className="dialog-footer">
        <DialogClose>
          <Button variant="ghost">Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? 'Saving…' : isEdit ? 'Save changes' : 'Add server'}
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
  errors: FormErrors;
}) {
  return (
    <>
      <Field
        label="Server URL"
        error={errors.url}
        hint="The server’s MCP endpoint, e.g. https://mcp.example.com/mcp. Plain http:// only for localhost."
      >
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
      <Field
        label="Transport"
        error={errors.transport}
        hint="Automatic tries Streamable HTTP first and falls back to the older HTTP+SSE transport, as the MCP spec describes."
      >
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className="input select-input narrow"
            value={values.transport}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => set('transport', e.target.value as ServerFormValues['transport'])}
          >
            <option value="">Automatic</option>
            <option value="http">Streamable HTTP</option>
            <option value="sse">HTTP+SSE (legacy)</option>
          </select>
        )}
      </Field>
      <HeadersEditor rows={values.headers} onChange={(rows) => set('headers', rows)} errors={errors} />
      <OAuthFields values={values.oauth} onChange={(oauth) => set('oauth', oauth)} errors={errors} />
    </>
  );
}

const ADVANCED_FIELDS = new Set([
  'startupSeconds',
  'requestSeconds',
  'maxTotalSeconds',
  'restartEnabled',
  'maxRestarts',
  'initialDelaySeconds',
  'maxDelaySeconds',
]);

interface AdvancedProps {
  values: ServerFormValues;
  set: <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => void;
  errors: FormErrors;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function AdvancedSection({ values, set, errors, open, onOpenChange }: AdvancedProps) {
  const number = (
    key:
      | 'startupSeconds'
      | 'requestSeconds'
      | 'maxTotalSeconds'
      | 'maxRestarts'
      | 'initialDelaySeconds'
      | 'maxDelaySeconds',
    label: string,
    hint: string,
  ) => (
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
          Advanced: timeouts and restarts
        </button>
      </Collapsible.Trigger>
      <Collapsible.Content className="advanced-body">
        <div className="field-grid three">
          {number('startupSeconds', 'Start-up timeout (s)', 'Time to start and finish the handshake.')}
          {number(
            'requestSeconds',
            'Request timeout (s)',
            'Per request; reset when the server reports progress, paused while a tool call waits for your answer.',
          )}
          {number('maxTotalSeconds', 'Longest call (s)', 'Ends a call even while it keeps reporting progress.')}
        </div>
        <div className="switch-field">
          <Switch
            id="restart-enabled"
            checked={values.restartEnabled}
            onCheckedChange={(v) => set('restartEnabled', v)}
            label="Restart after a crash"
          />
          <label htmlFor="restart-enabled">
            <strong>Restart after a crash</strong>
            <span className="field-hint">Berth waits longer after each failed attempt, then gives up.</span>
          </label>
        </div>
        <div className="field-grid three">
          {number('maxRestarts', 'Give up after', 'Consecutive failed restarts.')}
          {number('initialDelaySeconds', 'First delay (s)', 'Doubles after each failure…')}
          {number('maxDelaySeconds', 'Longest delay (s)', '…up to this.')}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
