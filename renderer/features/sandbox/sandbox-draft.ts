import type { SandboxServerSettingsView } from '../../../shared/contract/sandbox';
import { domainEntryProblem } from '../../../shared/domain/sandbox';
import { folderEntryWords } from '../../../shared/domain/sandbox-errors';
import { verbatim, type Words } from '../../i18n/words';

/** One row of a folder or domain list; `id` keeps React keys and errors stable while rows move. */
export interface ListRow {
  id: number;
  value: string;
}

/** What the sandbox editor edits: the switch and the two lists, as typed. */
export interface SandboxDraft {
  enabled: boolean;
  folders: ListRow[];
  domains: ListRow[];
}

/** The setting the draft stands for, ready for the host. */
export interface SandboxChoice {
  enabled: boolean;
  allowedFolders: string[];
  allowedDomains: string[];
}

let nextId = 1;
export function newListRow(value = ''): ListRow {
  return { id: nextId++, value };
}

export function draftOf(choice: Pick<SandboxChoice, 'enabled'> & Partial<SandboxChoice>): SandboxDraft {
  return {
    enabled: choice.enabled,
    folders: (choice.allowedFolders ?? []).map((value) => newListRow(value)),
    domains: (choice.allowedDomains ?? []).map((value) => newListRow(value)),
  };
}

export function draftFromSettings(view: SandboxServerSettingsView | undefined): SandboxDraft {
  return draftOf(view ?? { enabled: false });
}

/** Row id → what is wrong with it, worded where shown (a folder's problem has its code; a domain's is English still). */
export type DraftErrors = Record<number, Words>;

/**
 * The draft checked as the host checks it (the same rules, from
 * shared/domain/sandbox.ts), so a mistake shows at its row before anything
 * is sent. Empty rows are dropped; duplicates are kept once.
 */
export function checkDraft(
  draft: SandboxDraft,
  home = '',
): { ok: true; choice: SandboxChoice } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  for (const row of draft.folders) {
    if (row.value.trim() === '') continue;
    const problem = folderEntryWords(row.value.trim(), home);
    if (problem !== undefined) errors[row.id] = { hostMessage: problem.hostMessage, fallback: problem.text };
  }
  for (const row of draft.domains) {
    if (row.value.trim() === '') continue;
    const problem = domainEntryProblem(row.value);
    if (problem !== undefined) errors[row.id] = verbatim(problem);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const values = (rows: ListRow[], clean: (value: string) => string) => [
    ...new Set(rows.map((row) => clean(row.value)).filter((value) => value !== '')),
  ];
  return {
    ok: true,
    choice: {
      enabled: draft.enabled,
      allowedFolders: values(draft.folders, (value) => value.trim().replace(/(.)\/+$/, '$1')),
      allowedDomains: values(draft.domains, (value) => value.trim().toLowerCase()),
    },
  };
}

/** The checked choice to send, or false; either way the form shows the draft's errors (none when it is fine). */
export function choiceShowingErrors(
  checked: ReturnType<typeof checkDraft>,
  showErrors: (errors: DraftErrors) => void,
): SandboxChoice | false {
  showErrors(checked.ok ? {} : checked.errors);
  return checked.ok ? checked.choice : false;
}

/** Whether saving the draft would change the stored setting (what the person may need to confirm a restart for). */
export function draftChanges(choice: SandboxChoice, saved: SandboxServerSettingsView | undefined): boolean {
  const before = saved ?? { enabled: false, allowedFolders: [], allowedDomains: [] };
  return (
    before.enabled !== choice.enabled ||
    String(before.allowedFolders) !== String(choice.allowedFolders) ||
    String(before.allowedDomains) !== String(choice.allowedDomains)
  );
}
