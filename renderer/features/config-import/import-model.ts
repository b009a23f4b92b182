import type { MethodInput } from '../../../shared/contract';
import type {
  ForeignFormat,
  ImportCandidateView,
  ImportFailure,
  ImportInput,
  ImportPreview,
} from '../../../shared/contract/config-import';
import { ServerNameSchema } from '../../../shared/domain/server';
import { riskKeys } from '../launch-review/risk-confirm';
import type { MessageId } from '../../i18n/message-ids';
import { translate, type Translate } from '../../i18n/use-t';
import { failureWords, verbatim, words, wordsText, type Words } from '../../i18n/words';

/** The formats a pasted file may have, as people name them (catalog ids). */
export const FORMAT_LABELS = {
  'claude-desktop': 'config-import.format.claude-desktop',
  cursor: 'config-import.format.cursor',
  'claude-code': 'config-import.format.claude-code',
  vscode: 'config-import.format.vscode',
} as const satisfies Record<ForeignFormat, MessageId>;

/** One row of the preview as the person has set it. */
export interface RowChoice {
  checked: boolean;
  /** The Berth name it will get. */
  name: string;
  /** The person ticked "I understand" for its flagged warnings (none flagged: not needed). */
  confirmed?: boolean;
}

export type ImportChoices = Record<string, RowChoice>;

/** Why a row cannot be checked at all. */
export function blockedReason(candidate: ImportCandidateView): string | undefined {
  return candidate.unsupported;
}

/** Everything importable is checked except what looks like a server Berth already has. */
export function initialChoices(preview: ImportPreview): ImportChoices {
  return Object.fromEntries(
    preview.servers.map((candidate) => [
      candidate.sourceName,
      { checked: blockedReason(candidate) === undefined && candidate.duplicateOf === undefined, name: candidate.name },
    ]),
  );
}

export function checkedCandidates(preview: ImportPreview, choices: ImportChoices): ImportCandidateView[] {
  return preview.servers.filter(
    (candidate) => choices[candidate.sourceName]?.checked === true && blockedReason(candidate) === undefined,
  );
}

/** A checked row has flagged warnings the person has not confirmed: Import waits for them. */
export function unconfirmed(candidate: ImportCandidateView, choices: ImportChoices): boolean {
  return riskKeys(candidate.warnings).length > 0 && choices[candidate.sourceName]?.confirmed !== true;
}

/** The inputs the checked servers use, in the file's order. */
export function neededInputs(preview: ImportPreview, choices: ImportChoices): ImportInput[] {
  const used = new Set(checkedCandidates(preview, choices).flatMap((candidate) => candidate.requiredInputs));
  return preview.inputs.filter((input) => used.has(input.id));
}

/** A checked server uses `${workspaceFolder}` and the file does not belong to a known project. */
export function needsWorkspaceFolder(preview: ImportPreview, choices: ImportChoices): boolean {
  return (
    preview.workspaceFolder === undefined &&
    checkedCandidates(preview, choices).some((candidate) => candidate.usesWorkspaceFolder)
  );
}

/**
 * Problems found before asking the host, by row (`sourceName`) or `inputs.<id>` / `workspaceFolder`: words, worded
 * where shown (`localErrorTexts`) so a language switch re-words them; a key may hold more than one problem.
 */
export type LocalErrors = Record<string, readonly Words[]>;

/** The problems as text in the active locale, one line per key. */
export function localErrorTexts(errors: LocalErrors, t: Translate = translate): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([key, said]) => [key, said.map((one) => wordsText(one, t)).join(' ')]),
  );
}

export type ApplyBuild =
  { ok: true; input: Omit<MethodInput<'configImport.apply'>, 'source'> } | { ok: false; errors: LocalErrors };

/**
 * The import request for the checked rows. Names are checked here so each
 * row can say what is wrong; a blank answer to an input with a default is
 * left out so the host uses the default.
 */
export function buildApply(
  preview: ImportPreview,
  choices: ImportChoices,
  answers: Record<string, string>,
  workspaceFolder: string,
): ApplyBuild {
  const errors: LocalErrors = {};
  const rows = checkedCandidates(preview, choices);
  const seen = new Map<string, string>();
  for (const candidate of rows) {
    const name = choices[candidate.sourceName]?.name.trim() ?? '';
    const parsed = ServerNameSchema.safeParse(name);
    const other = seen.get(name.toLowerCase());
    if (!parsed.success)
      errors[candidate.sourceName] = [
        parsed.error.issues[0] !== undefined
          ? verbatim(parsed.error.issues[0].message)
          : words('config-import.error.invalidName'),
      ];
    else if (other !== undefined) errors[candidate.sourceName] = [words('config-import.error.nameTaken', { other })];
    else if (unconfirmed(candidate, choices)) errors[candidate.sourceName] = [words('config-import.error.unconfirmed')];
    seen.set(name.toLowerCase(), candidate.sourceName);
  }
  const sentAnswers: Record<string, string> = {};
  for (const input of neededInputs(preview, choices)) {
    const answer = answers[input.id] ?? '';
    if (answer !== '') sentAnswers[input.id] = answer;
    else if (!input.hasDefault)
      errors[`inputs.${input.id}`] = [words('config-import.error.inputMissing', { description: input.description })];
  }
  const folder = workspaceFolder.trim();
  if (needsWorkspaceFolder(preview, choices) && folder === '')
    errors.workspaceFolder = [words('config-import.error.workspaceFolder')];
  if (rows.length === 0) errors.form = [words('config-import.error.noneSelected')];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      servers: rows.map((candidate) => {
        const keys = riskKeys(candidate.warnings);
        return {
          sourceName: candidate.sourceName,
          name: choices[candidate.sourceName]?.name.trim() ?? candidate.name,
          ...(keys.length === 0 ? {} : { confirmed: keys }),
        };
      }),
      answers: sentAnswers,
      ...(needsWorkspaceFolder(preview, choices) ? { workspaceFolder: folder } : {}),
    },
  };
}

/** The same message with the same facts (the host words a shared input's refusal alike for each server). */
const sameWords = (a: Words, b: Words): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The host's refusal, spread over the rows, the inputs and the form. */
export function errorsFromFailures(failures: readonly ImportFailure[]): LocalErrors {
  const errors: Record<string, Words[]> = {};
  const add = (key: string, message: Words) => {
    const before = (errors[key] ??= []);
    // Two servers using the same input fail with the same message: say it once.
    if (!before.some((said) => sameWords(said, message))) before.push(message);
  };
  for (const failure of failures) {
    const message = failureWords(failure);
    if (failure.field?.startsWith('inputs.') === true) add(failure.field, message);
    else if (failure.field === 'workspaceFolder') add('workspaceFolder', message);
    else if (failure.sourceName === '') add('form', message);
    else add(failure.sourceName, message);
  }
  return errors;
}

/** The command line of a stdio server (arguments quoted where a space or quote would blur them), the address of a remote one. */
export { launchLine } from '../launch-review/launch-line';
