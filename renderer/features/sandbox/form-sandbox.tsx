import { useMemo, useState, type ReactNode } from 'react';
import type { ServerConfigInput, ServerState } from '../../../shared/domain';
import { useBerthStore } from '../../store';
import type { Result } from '../../../shared/result';
import {
  checkDraft,
  choiceShowingErrors,
  draftChanges,
  draftFromSettings,
  type DraftErrors,
  type SandboxChoice,
  type SandboxDraft,
} from './sandbox-draft';
import { SandboxEditor } from './sandbox-editor';
import { restartNote } from './sandbox-panel';
import { draftPolicyLines, homeOf } from './sandbox-words';
import { useSandbox, useSandboxModel, useSandboxPolicy } from './use-sandbox';
import { useT } from '../../i18n/use-t';

export interface FormSandbox {
  /** The form's Sandbox section (local servers only). */
  section: ReactNode;
  /** Checked on submit: the choice to save, or false after marking the rows that are wrong. */
  check(): SandboxChoice | false;
  /**
   * Adds the server with its sandbox, stored before its first start (here, not in the first screen's
   * store: that has no bytes to spare for a lazily used argument).
   */
  add(name: string, config: ServerConfigInput, choice: SandboxChoice): Promise<Result<ServerState>>;
  /** After an edit was saved (under `name`): stores a changed sandbox setting, which restarts a running server. */
  saveEdit(name: string, choice: SandboxChoice): Promise<Result<unknown> | undefined>;
}

/**
 * The sandbox part of the server form, kept out of the form's own file:
 * the same editor as the Sandbox tab. An added server gets its choice with
 * `servers.add` (stored before it first starts); an edit stores a changed
 * choice after the config.
 */
export function useFormSandbox(editing: ServerState | undefined): FormSandbox {
  const t = useT();
  const model = useSandboxModel();
  const store = useBerthStore();
  const support = useSandbox((s) => s.support);
  const saved = useSandbox((s) => (editing === undefined ? undefined : s.settings[editing.name]));
  const policy = useSandboxPolicy(editing?.name);
  // Null until the person touches it: the saved setting shows, even when it arrives after the form opened.
  const [draft, setDraft] = useState<SandboxDraft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  // Rows keep their ids until the setting changes, so an input is not replaced under the cursor.
  const fromSettings = useMemo(() => draftFromSettings(saved), [saved]);
  const shown = draft ?? fromSettings;
  const checked = checkDraft(shown, homeOf(policy));
  const changed = draft !== null && (!checked.ok || draftChanges(checked.choice, saved));
  const lines = draftPolicyLines(
    policy,
    shown.folders.map((row) => row.value),
    shown.domains.map((row) => row.value),
  );
  const section = (
    <section className="form-section sandbox-form-section" aria-labelledby="sandbox-form-title">
      <h3 id="sandbox-form-title" className="form-section-title">
        {t('sandbox.fact.label')}
      </h3>
      <SandboxEditor
        draft={shown}
        onChange={setDraft}
        errors={errors}
        support={support}
        lines={lines}
        rootsUnknown={editing === undefined}
        note={
          editing !== undefined && changed ? (
            <p className="sandbox-restart-note" role="note">
              {restartNote(editing, t)}
            </p>
          ) : null
        }
      />
    </section>
  );
  return {
    section,
    check() {
      return choiceShowingErrors(checked, setErrors);
    },
    async add(name, config, choice) {
      const result = await store.getState().appsTransport.call('servers.add', { name, config, sandbox: choice });
      // As the store's addServer: the event normally arrives first; this covers a host that answers before it publishes.
      if (result.ok && !(result.value.name in store.getState().servers))
        store.getState().applyServerChanged(result.value);
      return result;
    },
    async saveEdit(name, choice) {
      if (!draftChanges(choice, saved)) return undefined;
      return model.setSettings(name, { ...choice, offered: true });
    },
  };
}
