import { useState } from 'react';
import type { FormEvent } from 'react';
import { CONVERSATION_LIMITS } from '../../../shared/domain/chat';
import type { Conversation } from '../../../shared/domain/chat';
import { ANTHROPIC_PROVIDER_ID, splitModelKey } from '../../../shared/domain/model-key';
import { useBerth } from '../../store';
import { Button, Field, InlineAlert } from '../../ui/controls';
import { Dialog, DialogBody, DialogClose, DialogDescription, DialogFooter, DialogHeader } from '../../ui/dialog';
import { failureWords, useWords, words, type Words } from '../../i18n/words';
import { useT } from '../../i18n/use-t';

type FieldName = 'systemPrompt' | 'temperature' | 'maxTokens';
type Problems = Partial<Record<FieldName | 'form', Words>>;

/** The highest temperature `model`'s provider takes: Anthropic's Messages API stops at 1. */
export function temperatureMax(model: string): number {
  return splitModelKey(model).provider === ANTHROPIC_PROVIDER_ID
    ? CONVERSATION_LIMITS.anthropicTemperatureMax
    : CONVERSATION_LIMITS.temperatureMax;
}

/** '' is the default (null); anything else must be a number. */
function numberOrNull(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * "Conversation settings": the conversation's own system prompt (sent before the servers' instructions, which still
 * go), temperature and longest reply; an empty field is the default. Checked here first so a range reads in the
 * person's language; what the host still refuses (a window smaller than the tokens asked) shows beside its field.
 */
export default function ConversationSettingsDialog({
  conversation,
  onClose,
}: {
  conversation: Conversation;
  onClose: () => void;
}) {
  const t = useT();
  const save = useBerth((s) => s.setConversationParams);
  const [prompt, setPrompt] = useState(conversation.systemPrompt ?? '');
  const [temperature, setTemperature] = useState(conversation.temperature?.toString() ?? '');
  const [maxTokens, setMaxTokens] = useState(conversation.maxTokens?.toString() ?? '');
  const [problems, setProblems] = useState<Problems>({});
  // Worded as the dialog renders, so a live language switch re-words a shown problem.
  const said = useWords();
  const shown = (field: FieldName | 'form'): string | undefined => {
    const problem = problems[field];
    return problem === undefined ? undefined : said(problem);
  };
  const [saving, setSaving] = useState(false);
  const maxTemperature = temperatureMax(conversation.model);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const temperatureValue = numberOrNull(temperature);
    const tokensValue = numberOrNull(maxTokens);
    const found: Problems = {};
    if (
      temperatureValue === undefined ||
      (temperatureValue !== null && !(temperatureValue >= 0 && temperatureValue <= maxTemperature))
    )
      found.temperature = words('chat.params.temperatureRange', { max: maxTemperature });
    if (
      tokensValue === undefined ||
      (tokensValue !== null &&
        !(Number.isInteger(tokensValue) && tokensValue >= 1 && tokensValue <= CONVERSATION_LIMITS.maxTokensMax))
    )
      found.maxTokens = words('chat.params.maxTokensRange', { max: CONVERSATION_LIMITS.maxTokensMax });
    if (prompt.length > CONVERSATION_LIMITS.systemPromptChars)
      found.systemPrompt = words('chat.params.systemPromptLong', { max: CONVERSATION_LIMITS.systemPromptChars });
    setProblems(found);
    if (Object.keys(found).length > 0 || temperatureValue === undefined || tokensValue === undefined) return;
    setSaving(true);
    const result = await save(conversation.id, {
      systemPrompt: prompt.trim() === '' ? null : prompt,
      temperature: temperatureValue,
      maxTokens: tokensValue,
    });
    setSaving(false);
    if (result.ok) return onClose();
    const field = result.path === 'temperature' || result.path === 'maxTokens' ? result.path : 'form';
    setProblems({ [field]: failureWords(result) });
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      className="dialog-conversation-settings"
      aria-describedby="conversation-settings-description"
    >
      <DialogHeader title={t('chat.params.title')} />
      <DialogDescription id="conversation-settings-description">{t('chat.params.description')}</DialogDescription>
      {/* Our own checks word the range in the person's language; the browser's would block the submit in its own. */}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogBody>
          <Field
            label={t('chat.params.systemPrompt')}
            hint={t('chat.params.systemPromptHint')}
            error={shown('systemPrompt')}
          >
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                className="input conversation-settings-prompt"
                rows={6}
                value={prompt}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(event) => setPrompt(event.target.value)}
              />
            )}
          </Field>
          <div className="conversation-settings-numbers">
            <Field
              label={t('chat.params.temperature')}
              hint={t('chat.params.temperatureHint', { max: maxTemperature })}
              error={shown('temperature')}
            >
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={maxTemperature}
                  step={0.1}
                  value={temperature}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => setTemperature(event.target.value)}
                />
              )}
            </Field>
            <Field label={t('chat.params.maxTokens')} hint={t('chat.params.maxTokensHint')} error={shown('maxTokens')}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  value={maxTokens}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => setMaxTokens(event.target.value)}
                />
              )}
            </Field>
          </div>
          {shown('form') !== undefined ? <InlineAlert>{shown('form')}</InlineAlert> : null}
        </DialogBody>
        <DialogFooter>
          <DialogClose>
            <Button type="button">{t('chat.params.cancel')}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" disabled={saving}>
            {t('chat.params.save')}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
