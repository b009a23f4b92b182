import { useId, useRef, useState, type FormEvent } from 'react';
import type { PendingRequestOf } from '../../../shared/domain/pending';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ExternalIcon, FormIcon, LinkIcon, StopIcon, WarningIcon } from '../../ui/icons';
import { ElicitationFieldInput } from './elicitation-fields';
import { initialFormState, submitForm, type FormState } from './elicitation-model';
import { PendingFrame, type PendingDialogProps } from './pending-frame';
import { SafeName } from '../shell/safe-name';

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
  const taskId = useBerth(
    (s) =>
      s.tasks.find((t) => t.side === 'requester' && t.waitingFor === requestId && !isTerminalTaskStatus(t.status))?.id,
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
      title="Cancel the whole task this question belongs to, on its server"
    >
      {cancelling ? 'Cancelling the task…' : 'Cancel the task'}
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
  const [values, setValues] = useState<FormState>(() => initialFormState(payload.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
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
      title={
        <>
          “<SafeName name={request.server} />” asks for information
        </>
      }
      error={error}
      footer={
        <>
          <Button
            variant="ghost"
            onClick={() => void answer({ action: 'cancel' })}
            disabled={busy}
            title="Close without answering"
          >
            Cancel
          </Button>
          <CancelTaskButton requestId={request.id} answer={answer} busy={busy} />
          <div className="spacer" />
          <Button
            onClick={() => void answer({ action: 'decline' })}
            disabled={busy}
            title="Tell the server you do not want to answer"
          >
            Decline
          </Button>
          <Button variant="primary" type="submit" form={formId} disabled={busy}>
            Accept
          </Button>
        </>
      }
    >
      <p className="elicitation-message">{payload.message}</p>
      <form ref={formRef} id={formId} className="elicitation-form" onSubmit={submit} noValidate>
        {payload.fields.length === 0 ? (
          <p className="muted">The server asks for no fields: accept to confirm, or decline.</p>
        ) : null}
        {payload.fields.map((field) => (
          <ElicitationFieldInput
            key={field.name}
            field={field}
            value={values[field.name]}
            error={errors[field.name]}
            onChange={(value) => {
              setValues((current) => ({ ...current, [field.name]: value }));
              if (errors[field.name]) setErrors(({ [field.name]: _fixed, ...rest }) => rest);
            }}
          />
        ))}
      </form>
      <p className="field-hint">
        What you enter goes to <SafeName name={request.server} /> only. Fields marked * are required.
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
      title={
        <>
          “<SafeName name={request.server} />” wants you to open a web page
        </>
      }
      error={error}
      footer={
        <>
          <Button variant="ghost" onClick={() => void answer({ action: 'cancel' })} disabled={busy}>
            Cancel
          </Button>
          <CancelTaskButton requestId={request.id} answer={answer} busy={busy} />
          <div className="spacer" />
          <Button onClick={() => void answer({ action: 'decline' })} disabled={busy}>
            Decline
          </Button>
          <Button variant="primary" icon={<ExternalIcon />} onClick={open} disabled={busy || !consented}>
            Open in browser
          </Button>
        </>
      }
    >
      <p className="elicitation-message">{payload.message}</p>
      <div className="url-card">
        <span className="url-card-label">The page is on</span>
        <strong className="url-domain" data-testid="elicitation-domain">
          <SafeName name={payload.domain} />
        </strong>
        <code className="url-full wrap">{payload.url}</code>
      </div>
      {payload.warnings.length > 0 ? (
        <ul className="url-warnings" aria-label="Warnings">
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
            I want to open <SafeName name={payload.domain} />
          </strong>
          <span className="field-hint">
            Only open pages you expect. Berth does not see what you enter there; <SafeName name={request.server} /> will
            say when you are done.
          </span>
        </span>
      </label>
    </PendingFrame>
  );
}
