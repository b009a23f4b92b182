import clsx from 'clsx';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { PromptArgumentInfo, PromptInfo } from '../../../shared/contract/prompts';
import { useCompletions, type CompletionState } from '../completion/use-completions';
import { Button, IconButton } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import {
  argumentLabel,
  argumentsToSend,
  completionContext,
  emptyValues,
  validateArguments,
  type ArgumentValues,
} from './prompt-form-model';
import { moveHighlight } from '../../ui/use-combobox-menu';
import { promptLabel } from './slash-model';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/**
 * Why a prompt did not land in the draft: the server's call failed, or the prompt gave nothing. Kept as
 * facts, not words, so a language switch re-words it.
 */
export type PromptRefusal = { kind: 'failed'; failure: Failure } | { kind: 'empty' };

/**
 * The arguments of the chosen prompt, inline above the message box. Each
 * field asks the server for suggestions as the person types (when the
 * server can complete), passing the arguments filled so far as context.
 */
export function PromptForm({
  prompt,
  completions,
  onSubmit,
  onCancel,
}: {
  prompt: PromptInfo;
  /** The server declares the completions capability. */
  completions: boolean;
  /** Resolves with why the prompt did not land in the draft, or undefined when it did. */
  onSubmit: (args: ArgumentValues) => Promise<PromptRefusal | undefined>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<ArgumentValues>(() => emptyValues(prompt));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<PromptRefusal>();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  const t = useT();

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [prompt]);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const found = validateArguments(prompt, values);
    setErrors(found);
    const firstInvalid = prompt.arguments.find((argument) => found[argument.name] !== undefined);
    if (firstInvalid !== undefined) {
      const field = form.current?.elements.namedItem(firstInvalid.name);
      if (field instanceof HTMLInputElement) field.focus();
      return;
    }
    setBusy(true);
    setFailure(await onSubmit(argumentsToSend(prompt, values)));
    setBusy(false);
  }

  return (
    <form
      ref={form}
      className="slash-panel prompt-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        // Esc inside an open suggestion list only closes the list (handled there).
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <div className="slash-head">
        <span className="slash-title" id={titleId}>
          /{prompt.name}
          {prompt.title !== undefined && prompt.title !== prompt.name ? (
            <span className="slash-option-title"> {promptLabel(prompt)}</span>
          ) : null}
          <span className="slash-option-server"> {prompt.server}</span>
        </span>
        <IconButton size="sm" label={t('chat.promptForm.close')} icon={<CloseIcon />} onClick={onCancel} />
      </div>
      {prompt.description !== undefined ? <p className="prompt-form-description">{prompt.description}</p> : null}
      {prompt.arguments.length === 0 ? (
        <p className="prompt-form-description">{t('chat.promptForm.noArguments')}</p>
      ) : null}
      <div className="prompt-form-fields">
        {prompt.arguments.map((argument) => (
          <ArgumentField
            key={argument.name}
            prompt={prompt}
            argument={argument}
            value={values[argument.name] ?? ''}
            error={errors[argument.name]}
            context={completionContext(values, argument.name)}
            completions={completions}
            onChange={(value) => {
              setValues((current) => ({ ...current, [argument.name]: value }));
              if (errors[argument.name] !== undefined) setErrors(({ [argument.name]: _, ...rest }) => rest);
            }}
            onSubmitForm={() => void submit()}
          />
        ))}
      </div>
      {failure !== undefined ? (
        <p className="field-error" role="alert">
          {failure.kind === 'failed' ? failureText(failure.failure) : t('chat.slash.empty', { name: prompt.name })}
        </p>
      ) : null}
      <div className="prompt-form-actions">
        <span className="muted">{t('chat.promptForm.footer')}</span>
        <div className="spacer" />
        <Button onClick={onCancel}>{t('chat.promptForm.cancel')}</Button>
        <Button variant="primary" type="submit" disabled={busy}>
          {t(busy ? 'chat.promptForm.getting' : 'chat.promptForm.insert')}
        </Button>
      </div>
    </form>
  );
}

function ArgumentField({
  prompt,
  argument,
  value,
  error,
  context,
  completions,
  onChange,
  onSubmitForm,
}: {
  prompt: PromptInfo;
  argument: PromptArgumentInfo;
  value: string;
  error: string | undefined;
  context: ArgumentValues;
  completions: boolean;
  onChange: (value: string) => void;
  onSubmitForm: () => void;
}) {
  const id = useId();
  const listboxId = `${id}-suggestions`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const t = useT();
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [highlighted, setHighlighted] = useState(-1);
  const suggestions = useCompletions(
    completions && focused
      ? {
          server: prompt.server,
          ref: { type: 'ref/prompt', name: prompt.name },
          argument: { name: argument.name, value },
          context,
        }
      : undefined,
  );
  // What the person typed exactly is not worth suggesting back.
  const options = suggestions.values.filter((suggestion) => suggestion !== value);
  const open = focused && !dismissed && (options.length > 0 || suggestions.status === 'error');
  const required = argument.required === true;

  useEffect(() => setHighlighted(-1), [suggestions.values]);

  const choose = (suggestion: string) => {
    onChange(suggestion);
    setDismissed(true);
  };

  return (
    <div className={clsx('field', 'prompt-field', error !== undefined && 'field-invalid')}>
      <label className="field-label" htmlFor={id}>
        {argumentLabel(argument)}
        {required ? (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        ) : (
          <span className="muted"> {t('chat.promptForm.optional')}</span>
        )}
      </label>
      <div className="prompt-field-control">
        <input
          id={id}
          name={argument.name}
          className="input"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listboxId}
          aria-activedescendant={open && highlighted >= 0 ? `${listboxId}-${highlighted}` : undefined}
          aria-required={required}
          aria-invalid={error !== undefined}
          aria-describedby={
            [error !== undefined ? errorId : undefined, argument.description !== undefined ? hintId : undefined]
              .filter(Boolean)
              .join(' ') || undefined
          }
          value={value}
          onChange={(e) => {
            setDismissed(false);
            onChange(e.target.value);
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setDismissed(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              if (options.length === 0) return;
              e.preventDefault();
              setDismissed(false);
              setHighlighted((current) => moveHighlight(current, e.key === 'ArrowDown' ? 1 : -1, options.length));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              const pick = open ? options[highlighted] : undefined;
              if (pick !== undefined) choose(pick);
              else onSubmitForm();
            } else if (e.key === 'Tab' && open && highlighted >= 0) {
              const pick = options[highlighted];
              if (pick !== undefined) {
                e.preventDefault();
                choose(pick);
              }
            } else if (e.key === 'Escape' && open) {
              // Closes only the list; the form's own Esc handler sees defaultPrevented.
              e.preventDefault();
              setDismissed(true);
            }
          }}
        />
        <SuggestionList
          listboxId={listboxId}
          open={open}
          options={options}
          state={suggestions}
          highlighted={highlighted}
          onHighlight={setHighlighted}
          onChoose={choose}
          label={argumentLabel(argument)}
        />
      </div>
      {error !== undefined ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
      {argument.description !== undefined ? (
        <p className="field-hint" id={hintId}>
          {argument.description}
        </p>
      ) : null}
    </div>
  );
}

function SuggestionList({
  listboxId,
  open,
  options,
  state,
  highlighted,
  onHighlight,
  onChoose,
  label,
}: {
  listboxId: string;
  open: boolean;
  options: string[];
  state: CompletionState;
  highlighted: number;
  onHighlight: (index: number) => void;
  onChoose: (value: string) => void;
  label: string;
}) {
  const t = useT();
  const name = t('chat.promptForm.suggestions', { label });
  if (!open) return <ul id={listboxId} role="listbox" aria-label={name} hidden />;
  if (state.status === 'error') {
    return (
      <p id={listboxId} className="suggestions suggestions-error" role="status">
        {t('chat.promptForm.noSuggestions', { message: failureText(state.failure) })}
      </p>
    );
  }
  const more =
    state.status === 'ready' && (state.hasMore === true || (state.total !== undefined && state.total > options.length));
  return (
    <ul id={listboxId} role="listbox" aria-label={name} className="suggestions">
      {options.map((option, index) => (
        <li
          key={option}
          id={`${listboxId}-${index}`}
          role="option"
          aria-selected={index === highlighted}
          className={clsx('suggestion', index === highlighted && 'suggestion-active')}
          onMouseDown={(e) => {
            // Keep focus in the field; choosing must not blur it first.
            e.preventDefault();
            onChoose(option);
          }}
          // The pointer moves the same highlight as the arrow keys, so only one option ever looks current.
          onMouseMove={() => {
            if (index !== highlighted) onHighlight(index);
          }}
        >
          {option}
        </li>
      ))}
      {more ? (
        <li className="suggestion-more" role="presentation">
          {state.total !== undefined
            ? t('chat.promptForm.more', { count: state.total - options.length })
            : t('chat.promptForm.moreUnknown')}
        </li>
      ) : null}
    </ul>
  );
}
