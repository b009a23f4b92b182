import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { formFromSchema } from '../../../shared/elicitation';
import type { FieldProblem } from '../../../shared/domain/pending-errors';
import type { EventAction, EventTypeView } from '../../../shared/domain/mcp-events';
import { useBerth } from '../../store';
import { Button, InlineAlert } from '../../ui/controls';
import { Dialog, DialogBody, DialogFooter, DialogHeader } from '../../ui/dialog';
import { ElicitationFieldInput } from '../pending/elicitation-fields';
import { initialFormState, submitForm, type FormState } from '../pending/elicitation-model';
import { hostText } from '../../i18n/host-message';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';

const ACTIONS: { action: EventAction; label: MessageId; hint: MessageId }[] = [
  { action: 'notify', label: 'events.form.actionNotify', hint: 'events.form.actionNotifyHint' },
  { action: 'inbox', label: 'events.form.actionInbox', hint: 'events.form.actionInboxHint' },
  { action: 'conversation', label: 'events.form.actionConversation', hint: 'events.form.actionConversationHint' },
];

/** An event type without an inputSchema takes no arguments: an empty object form. */
const NO_ARGUMENTS = { type: 'object', properties: {} };

/**
 * The subscribe form: the event type's arguments as the elicitation form builds them from its inputSchema
 * (the same fields and checks), then what each event does.
 */
export function SubscribeDialog({
  server,
  type,
  onClose,
}: {
  server: string;
  type: EventTypeView;
  onClose: () => void;
}) {
  const t = useT();
  const subscribe = useBerth((s) => s.subscribeToEvent);
  const form = useMemo(() => formFromSchema(type.inputSchema ?? NO_ARGUMENTS), [type.inputSchema]);
  const fields = form.ok ? form.fields : [];
  const [values, setValues] = useState<FormState>(() => initialFormState(fields));
  const [errors, setErrors] = useState<Record<string, FieldProblem>>({});
  const [action, setAction] = useState<EventAction>('notify');
  const [prompt, setPrompt] = useState('');
  const [promptMissing, setPromptMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const formId = useId();
  const promptId = useId();
  const formRef = useRef<HTMLFormElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = submitForm(fields, values);
    const noPrompt = action === 'conversation' && prompt.trim() === '';
    setErrors(checked.ok ? {} : checked.errors);
    setPromptMissing(noPrompt);
    if (!checked.ok || noPrompt) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setBusy(true);
    const done = await subscribe({
      server,
      event: type.name,
      arguments: checked.content,
      action,
      ...(action === 'conversation' ? { prompt } : {}),
    });
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} className="dialog-wide subscribe-dialog">
      <DialogHeader title={t('events.form.title', { event: type.title ?? type.name })} />
      <DialogBody>
        <form ref={formRef} id={formId} className="elicitation-form" onSubmit={(e) => void submit(e)} noValidate>
          <fieldset className="subscribe-section">
            <legend>{t('events.form.arguments')}</legend>
            {!form.ok ? (
              <InlineAlert>{t('events.form.badSchema', { problem: form.message })}</InlineAlert>
            ) : fields.length === 0 ? (
              <p className="muted">{t('events.form.noArguments')}</p>
            ) : (
              fields.map((field) => (
                <ElicitationFieldInput
                  key={field.name}
                  field={field}
                  value={values[field.name]}
                  error={errors[field.name] && hostText(errors[field.name]!.hostMessage, errors[field.name]!.text)}
                  onChange={(value) => {
                    setValues((current) => ({ ...current, [field.name]: value }));
                    if (errors[field.name]) setErrors(({ [field.name]: _fixed, ...rest }) => rest);
                  }}
                />
              ))
            )}
          </fieldset>
          <fieldset className="subscribe-section">
            <legend>{t('events.form.action')}</legend>
            {ACTIONS.map((choice) => (
              <label key={choice.action} className="check-field">
                <input
                  type="radio"
                  name="event-action"
                  value={choice.action}
                  checked={action === choice.action}
                  onChange={() => setAction(choice.action)}
                />
                <span>
                  <strong>{t(choice.label)}</strong>
                  <span className="field-hint">{t(choice.hint)}</span>
                </span>
              </label>
            ))}
            {action === 'conversation' ? (
              <div className={promptMissing ? 'field field-invalid' : 'field'}>
                <label className="field-label" htmlFor={promptId}>
                  {t('events.form.prompt')}
                </label>
                <textarea
                  id={promptId}
                  className="input"
                  rows={4}
                  value={prompt}
                  aria-invalid={promptMissing}
                  aria-describedby={`${promptId}-hint`}
                  onChange={(e) => {
                    setPrompt(e.target.value);
                    if (e.target.value.trim() !== '') setPromptMissing(false);
                  }}
                />
                {promptMissing ? (
                  <p className="field-error" role="alert">
                    {t('events.form.promptRequired')}
                  </p>
                ) : null}
                <p className="field-hint" id={`${promptId}-hint`}>
                  {t('events.form.promptHint', {
                    eventToken: '{{event}}',
                    serverToken: '{{server}}',
                    countToken: '{{count}}',
                  })}
                </p>
              </div>
            ) : null}
          </fieldset>
          <p className="field-hint subscribe-untrusted">{t('events.form.untrusted')}</p>
        </form>
      </DialogBody>
      <DialogFooter>
        <div className="spacer" />
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          {t('events.form.cancel')}
        </Button>
        <Button variant="primary" type="submit" form={formId} disabled={busy || !form.ok}>
          {t('events.form.submit')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
