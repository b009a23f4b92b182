import clsx from 'clsx';
import { useId, useRef, type ReactNode } from 'react';
import type { SandboxSupport } from '../../../shared/domain/sandbox';
import { Button, IconButton } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { CloseIcon, PlusIcon, WarningIcon } from '../../ui/icons';
import { newListRow, type DraftErrors, type ListRow, type SandboxDraft } from './sandbox-draft';
import { PolicyFacts } from './policy-facts';
import { unavailableSentence, type PolicyLines } from './sandbox-words';

export const SANDBOX_SWITCH_LABEL = 'Run in the OS sandbox';

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
          label={SANDBOX_SWITCH_LABEL}
          describedBy={`${id}-hint`}
          onCheckedChange={(enabled) => onChange({ ...draft, enabled })}
        />
        <label htmlFor={id}>
          <strong>{SANDBOX_SWITCH_LABEL}</strong>
          <span className="field-hint" id={`${id}-hint`}>
            It may then change files only in its roots and its own folders, read no credentials, and reach only the
            domains you list.
          </span>
        </label>
      </div>
      {unavailable ? (
        <div className="inline-alert warn" role="note" data-testid="sandbox-unavailable">
          <WarningIcon />
          <span>
            {unavailableSentence(support)}
            {draft.enabled
              ? ' It is set to run sandboxed, so it does not start until then (or until you turn this off).'
              : ''}
          </span>
        </div>
      ) : null}
      {draft.enabled ? (
        <>
          <PolicyFacts lines={lines} rootsUnknown={rootsUnknown} />
          <StringListEditor
            legend="Extra folders it may change"
            noun="folder"
            placeholder="/home/you/Documents/reports"
            empty="None: only its roots and its own folders."
            hint="Absolute paths. Folders holding credentials and files that run at login stay closed whatever you add."
            rows={draft.folders}
            errors={errors}
            onChange={(folders) => onChange({ ...draft, folders })}
          />
          <StringListEditor
            legend="Domains it may reach"
            noun="domain"
            placeholder="api.example.com"
            empty="None: no network at all."
            hint="A domain (api.example.com), every subdomain (*.example.com) or host:port. Everything else is refused."
            rows={draft.domains}
            errors={errors}
            onChange={(domains) => onChange({ ...draft, domains })}
          />
        </>
      ) : (
        <p className="sandbox-off-note">
          {offNote ??
            'Off: it runs with every right of your account: it can read your SSH keys and browser profiles, change any of your files and reach any address.'}
        </p>
      )}
      {note}
    </div>
  );
}

interface ListEditorProps {
  legend: string;
  noun: string;
  placeholder: string;
  empty: string;
  hint: string;
  rows: ListRow[];
  errors: DraftErrors;
  onChange: (rows: ListRow[]) => void;
}

/** One input per folder or domain; Enter adds the next one instead of submitting the form. */
function StringListEditor({ legend, noun, placeholder, empty, hint, rows, errors, onChange }: ListEditorProps) {
  const hintId = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const add = () => {
    const row = newListRow();
    onChange([...rows, row]);
    // After React rendered it.
    setTimeout(() => document.getElementById(`sandbox-row-${row.id}`)?.focus());
  };
  return (
    <fieldset className="list-editor sandbox-list" aria-describedby={hintId}>
      <legend className="field-label">{legend}</legend>
      {rows.length === 0 ? <p className="list-empty">{empty}</p> : null}
      <ul className="list-rows">
        {rows.map((row, index) => (
          <li key={row.id} className="sandbox-list-row">
            <div className="list-row">
              <input
                id={`sandbox-row-${row.id}`}
                className={clsx('input mono', errors[row.id] !== undefined && 'input-invalid')}
                value={row.value}
                placeholder={placeholder}
                aria-label={`${Noun} ${index + 1}`}
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
                label={`Remove ${noun} ${index + 1}`}
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
                {Noun} {index + 1}: {errors[row.id]}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <Button ref={addRef} size="sm" variant="ghost" icon={<PlusIcon />} onClick={add}>
        Add {noun}
      </Button>
      <p className="field-hint" id={hintId}>
        {hint}
      </p>
    </fieldset>
  );
}
