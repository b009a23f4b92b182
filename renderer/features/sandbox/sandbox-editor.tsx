import clsx from 'clsx';
import { useId, useRef, type ReactNode } from 'react';
import type { SandboxSupport } from '../../../shared/domain/sandbox';
import { Button, IconButton } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { CloseIcon, PlusIcon, WarningIcon } from '../../ui/icons';
import { newListRow, type DraftErrors, type ListRow, type SandboxDraft } from './sandbox-draft';
import { PolicyFacts } from './policy-facts';
import { unavailableSentence, type PolicyLines } from './sandbox-words';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';
import { useWords, verbatim } from '../../i18n/words';

export interface SandboxEditorProps {
  draft: SandboxDraft;
  onChange: (draft: SandboxDraft) => void;
  errors?: DraftErrors;
  /** Undefined while the host has not answered: the switch waits. */
  support: SandboxSupport | undefined;
  /** The policy the draft would give, in words. */
  lines: PolicyLines;
  /** A server not added yet: its roots are not known. */
  rootsUnknown?: boolean;
  /** What saving does to the running server (a restart), or where the defaults came from. */
  note?: ReactNode;
  /** Replaces the "Off: every right of your account" sentence where something else keeps the server apart (its container). */
  offNote?: string | undefined;
}

/**
 * The sandbox switch, its policy in plain words, and the two lists the
 * person adds to it (extra folders, domains). Shared by the server form,
 * the server's Sandbox tab and the install/import reviews, so they all say
 * the same thing. Where the platform cannot sandbox, the switch is disabled
 * and says why and what to install — never silently off.
 */
export function SandboxEditor({
  draft,
  onChange,
  errors = {},
  support,
  lines,
  rootsUnknown = false,
  note,
  offNote,
}: SandboxEditorProps) {
  const t = useT();
  const id = useId();
  const unavailable = support !== undefined && !support.available;
  // A server already set to run sandboxed can still be turned off where the sandbox went missing.
  const switchDisabled = support === undefined || (unavailable && !draft.enabled);
  return (
    <div className="sandbox-editor" data-testid="sandbox-editor">
      <div className="switch-field">
        <Switch
          id={id}
          checked={draft.enabled}
          disabled={switchDisabled}
          label={t('sandbox.editor.switch')}
          describedBy={`${id}-hint`}
          onCheckedChange={(enabled) => onChange({ ...draft, enabled })}
        />
        <label htmlFor={id}>
          <strong>{t('sandbox.editor.switch')}</strong>
          <span className="field-hint" id={`${id}-hint`}>
            {t('sandbox.editor.switchHint')}
          </span>
        </label>
      </div>
      {unavailable ? (
        <div className="inline-alert warn" role="note" data-testid="sandbox-unavailable">
          <WarningIcon />
          <span>
            {unavailableSentence(support)}
            {draft.enabled ? ` ${t('sandbox.editor.waitsForSandbox')}` : ''}
          </span>
        </div>
      ) : null}
      {draft.enabled ? (
        <>
          <PolicyFacts lines={lines} rootsUnknown={rootsUnknown} />
          <StringListEditor
            kind="folder"
            placeholder={t('sandbox.folders.placeholder')}
            rows={draft.folders}
            errors={errors}
            onChange={(folders) => onChange({ ...draft, folders })}
          />
          <StringListEditor
            kind="domain"
            placeholder="api.example.com"
            rows={draft.domains}
            errors={errors}
            onChange={(domains) => onChange({ ...draft, domains })}
          />
        </>
      ) : (
        <p className="sandbox-off-note">{offNote ?? t('sandbox.editor.offNote')}</p>
      )}
      {note}
    </div>
  );
}

// The words of each list, per kind, so each language words "Folder 2" and "Remove domain 1" whole.
const LIST_WORDS = {
  folder: {
    legend: 'sandbox.folders.legend',
    empty: 'sandbox.folders.empty',
    hint: 'sandbox.folders.hint',
    row: 'sandbox.folders.row',
    remove: 'sandbox.folders.remove',
    error: 'sandbox.folders.error',
    add: 'sandbox.folders.add',
  },
  domain: {
    legend: 'sandbox.domains.legend',
    empty: 'sandbox.domains.empty',
    hint: 'sandbox.domains.hint',
    row: 'sandbox.domains.row',
    remove: 'sandbox.domains.remove',
    error: 'sandbox.domains.error',
    add: 'sandbox.domains.add',
  },
} as const satisfies Record<string, Record<string, MessageId>>;

interface ListEditorProps {
  kind: keyof typeof LIST_WORDS;
  /** An example value (a path, a domain): not translated. */
  placeholder: string;
  rows: ListRow[];
  errors: DraftErrors;
  onChange: (rows: ListRow[]) => void;
}

/** One input per folder or domain; Enter adds the next one instead of submitting the form. */
function StringListEditor({ kind, placeholder, rows, errors, onChange }: ListEditorProps) {
  const t = useT();
  const said = useWords();
  const words = LIST_WORDS[kind];
  const hintId = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const add = () => {
    const row = newListRow();
    onChange([...rows, row]);
    // After React rendered it.
    setTimeout(() => document.getElementById(`sandbox-row-${row.id}`)?.focus());
  };
  return (
    <fieldset className="list-editor sandbox-list" aria-describedby={hintId}>
      <legend className="field-label">{t(words.legend)}</legend>
      {rows.length === 0 ? <p className="list-empty">{t(words.empty)}</p> : null}
      <ul className="list-rows">
        {rows.map((row, index) => (
          <li key={row.id} className="sandbox-list-row">
            <div className="list-row">
              <input
                id={`sandbox-row-${row.id}`}
                className={clsx('input mono', errors[row.id] !== undefined && 'input-invalid')}
                value={row.value}
                placeholder={placeholder}
                aria-label={t(words.row, { number: index + 1 })}
                aria-invalid={errors[row.id] !== undefined}
                spellCheck={false}
                autoComplete="off"
                onChange={(event) =>
                  onChange(rows.map((r) => (r.id === row.id ? { ...r, value: event.target.value } : r)))
                }
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    add();
                  }
                }}
              />
              <IconButton
                label={t(words.remove, { number: index + 1 })}
                icon={<CloseIcon />}
                onClick={() => {
                  // The removed row's button goes with it: the focus moves to the row before (or after), else to "Add".
                  const neighbour = rows[index - 1] ?? rows[index + 1];
                  onChange(rows.filter((r) => r.id !== row.id));
                  setTimeout(() =>
                    (neighbour === undefined
                      ? addRef.current
                      : document.getElementById(`sandbox-row-${neighbour.id}`)
                    )?.focus(),
                  );
                }}
              />
            </div>
            {errors[row.id] !== undefined ? (
              <p className="field-error" role="alert">
                {t(words.error, { number: index + 1, error: said(errors[row.id] ?? verbatim('')) })}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <Button ref={addRef} size="sm" variant="ghost" icon={<PlusIcon />} onClick={add}>
        {t(words.add)}
      </Button>
      <p className="field-hint" id={hintId}>
        {t(words.hint)}
      </p>
    </fieldset>
  );
}
