import { useId, useRef, useState, type FormEvent } from 'react';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { SAFE_CHOICE } from '../../ui/dialog-focus';
import { ExternalIcon, FormIcon, LinkIcon, StopIcon, WarningIcon } from '../../ui/icons';
import { ElicitationFieldInput } from './elicitation-fields';
import { initialFormState, submitForm, type FormState } from './elicitation-model';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { hostText } from '../../i18n/host-message';
import type { FieldProblem } from '../../../shared/domain/pending-errors';

/** A field's problem in the person's language (the form's own check words it as the host would). */
const fieldProblemText = (problem: FieldProblem | undefined): string | undefined =>
  problem === undefined ? undefined : hostText(problem.hostMessage, problem.text);

type FormPayload = Extract<PendingRequestOf<'elicitation'>['payload'], { mode: 'form' }>;
type UrlPayload = Extract<PendingRequestOf<'elicitation'>['payload'], { mode: 'url' }>;

/** A server asks the person something: a form to fill, or a link to open. */
export function ElicitationDialog(props: PendingDialogProps<'elicitation'>) {
  const { payload } = props.request;
  return payload.mode === 'form' ? (
    <FormElicitation {...props} payload={payload} />
  ) : (
    <UrlElicitation {...props} payload={payload} />
  );
}

/**
 * "Cancel the task" beside the form's Cancel, when the question is asked by a
 * running tool task of Berth's (its record waits on this question): the task
 * is cancelled on its server (`tasks/cancel`), then the question is closed.
 */
function CancelTaskButton({
  requestId,
  answer,
  busy,
}: {
  requestId: string;
  answer: PendingDialogProps<'elicitation'>['answer'];
  busy: boolean;
}) {
  const t = useT();
  const taskId = useBerth(
    (s) =>
      s.tasks.find(
        (task) => task.side === 'requester' && task.waitingFor === requestId && !isTerminalTaskStatus(task.status),
      )?.id,
  );
  const cancelTask = useBerth((s) => s.cancelTask);
  const [cancelling, setCancelling] = useState(false);
  if (taskId === undefined) return null;
  const cancel = async () => {
    setCancelling(true);
    await cancelTask(taskId);
    await answer({ action: 'cancel' });
    setCancelling(false);
  };
  return (
    <Button
      variant="ghost"
      icon={<StopIcon />}
      onClick={() => void cancel()}
      disabled={busy || cancelling}
      title={t('pending.elicit.cancelTaskHint')}
    >
      {t(cancelling ? 'pending.elicit.cancellingTask' : 'pending.elicit.cancelTask')}
    </Button>
  );
}

function FormElicitation({
  request,
  answer,
  busy,
  error,
  payload,
}: PendingDialogProps<'elicitation'> & { payload: FormPayload }) {
  const t = useT();
  const [values, setValues] = useState<FormState>(() => initialFormState(payload.fields));
  // Each field's problem as its code, not its words: a language switch re-words it.
  const [errors, setErrors] = useState<Record<string, FieldProblem>>({});
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = submitForm(payload.fields, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      // Bring the first problem into view; the fields announce their own errors.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setErrors({});
    void answer({ action: 'accept', content: checked.content });
  };

  return (
    <PendingFrame
      request={request}
      icon={<FormIcon />}
      title={<T id="pending.elicit.formTitle" components={{ server: <SafeName name={request.server} /> }} />}
      error={error}
      footer={
        <>
          <Button
            variant="ghost"
            {...SAFE_CHOICE}
            onClick={() => void answer({ action: 'cancel' })}
            disabled={busy}
            title={t('pending.elicit.cancelHint')}
          >
            {t('pending.elicit.cancel')}
          </Button>
          <CancelTaskButton requestId={request.id} answer={answer} busy={busy} />
          <div className="spacer" />
          <Button
            onClick={() => void answer({ action: 'decline' })}
            disabled={busy}
            title={t('pending.elicit.declineHint')}
          >
            {t('pending.elicit.decline')}
          </Button>
          <Button variant="primary" type="submit" form={formId} disabled={busy}>
            {t('pending.elicit.accept')}
          </Button>
        </>
      }
    >
      <p className="elicitation-message">{payload.message}</p>
      <form ref={formRef} id={formId} className="elicitation-form" onSubmit={submit} noValidate>
        {payload.fields.length === 0 ? <p className="muted">{t('pending.elicit.noFields')}</p> : null}
        {payload.fields.map((field) => (
          <ElicitationFieldInput
            key={field.name}
            field={field}
            value={values[field.name]}
            error={fieldProblemText(errors[field.name])}
            onChange={(value) => {
              setValues((current) => ({ ...current, [field.name]: value }));
              if (errors[field.name]) setErrors(({ [field.name]: _fixed, ...rest }) => rest);
            }}
          />
        ))}
      </form>
      <p className="field-hint">
        <T id="pending.elicit.formHint" components={{ server: <SafeName name={request.server} /> }} />
      </p>
    </PendingFrame>
  );
}

function UrlElicitation({
  request,
  answer,
  busy,
  error,
  payload,
}: PendingDialogProps<'elicitation'> & { payload: UrlPayload }) {
  const t = useT();
  const shell = useBerth((s) => s.appInfo?.shell);
  const [consented, setConsented] = useState(false);
  const checkId = useId();

  const open = () => {
    if (!consented) return;
    // In browser mode the page itself opens the tab (inside the click, so it is not blocked as a pop-up);
    // the desktop app opens the system browser on the host side once it gets the accept.
    if (shell === 'browser') window.open(payload.url, '_blank', 'noopener,noreferrer');
    void answer({ action: 'accept' });
  };

  return (
    <PendingFrame
      request={request}
      icon={<LinkIcon />}
      title={<T id="pending.elicit.urlTitle" components={{ server: <SafeName name={request.server} /> }} />}
      error={error}
      footer={
        <>
          <Button variant="ghost" {...SAFE_CHOICE} onClick={() => void answer({ action: 'cancel' })} disabled={busy}>
            {t('pending.elicit.cancel')}
          </Button>
          <CancelTaskButton requestId={request.id} answer={answer} busy={busy} />
          <div className="spacer" />
          <Button onClick={() => void answer({ action: 'decline' })} disabled={busy}>
            {t('pending.elicit.decline')}
          </Button>
          <Button variant="primary" icon={<ExternalIcon />} onClick={open} disabled={busy || !consented}>
            {t('pending.elicit.openInBrowser')}
          </Button>
        </>
      }
    >
      <p className="elicitation-message">{payload.message}</p>
      <div className="url-card">
        <span className="url-card-label">{t('pending.elicit.pageOn')}</span>
        <strong className="url-domain" data-testid="elicitation-domain">
          <SafeName name={payload.domain} />
        </strong>
        <code className="url-full wrap">{payload.url}</code>
      </div>
      {payload.warnings.length > 0 ? (
        <ul className="url-warnings" aria-label={t('pending.elicit.warnings')}>
          {payload.warnings.map((warning) => (
            <li key={warning} className="inline-alert">
              <WarningIcon />
              <span>{warning}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <label className="check-field consent-check" htmlFor={checkId}>
        <input id={checkId} type="checkbox" checked={consented} onChange={(e) => setConsented(e.target.checked)} />
        <span>
          <strong>
            <T id="pending.elicit.wantOpen" components={{ domain: <SafeName name={payload.domain} /> }} />
          </strong>
          <span className="field-hint">
            <T id="pending.elicit.urlHint" components={{ server: <SafeName name={request.server} /> }} />
          </span>
        </span>
      </label>
    </PendingFrame>
  );
}
