import { codedFamily, type CodedText } from './host-wording';
import {
  folderEntryIssue,
  folderEntryIssueText,
  protectedFolderPlace,
  protectedFolderProblem,
  protectedPlaceText,
  type FolderEntryIssue,
  type ProtectedKind,
} from './sandbox';

/**
 * The OS sandbox's refusals, as codes with their facts; the renderer words them from
 * renderer/i18n/locales/<locale>/sandbox-errors.json. `reason` and `install` are the sandbox runtime's own
 * words (what is missing here, the command that installs it); `domain` is what the person or a denial named;
 * `folder` a folder to write as given, `real` where its links lead, `place` the protected folder as shown (`~/.ssh`).
 */
export type SandboxErrorMessages = {
  'sandbox-errors.local-only': Record<string, never>;
  'sandbox-errors.unavailable': { reason: string };
  'sandbox-errors.unavailable-install': { reason: string; install: string };
  'sandbox-errors.domain-not-one-click': { domain: string };
  'sandbox-errors.own-port': { domain: string };
  'sandbox-errors.folder-entry': { folder: string; issue: FolderEntryIssue };
  'sandbox-errors.folder-protected': { folder: string; kind: ProtectedKind; place: string };
  'sandbox-errors.folder-protected-link': { folder: string; real: string; kind: ProtectedKind; place: string };
  'sandbox-errors.no-fix-network': Record<string, never>;
  'sandbox-errors.no-fix-unreadable': Record<string, never>;
  'sandbox-errors.no-fix-protected': { kind: ProtectedKind; place: string };
  'sandbox-errors.no-fix-write': Record<string, never>;
  'sandbox-errors.entry-issue': { issue: FolderEntryIssue };
  'sandbox-errors.entry-protected': { kind: ProtectedKind; place: string };
};
export type SandboxErrorCode = keyof SandboxErrorMessages;

/** A sandbox refusal in English with its code (the English is what Berth always said). */
export const sandboxError = codedFamily<SandboxErrorMessages>({
  'sandbox-errors.local-only': () => 'The sandbox is for local servers: a remote (HTTP) server runs elsewhere',
  'sandbox-errors.unavailable': ({ reason }) => `The sandbox is unavailable here: ${reason}`,
  'sandbox-errors.unavailable-install': ({ reason, install }) =>
    `The sandbox is unavailable here: ${reason}. ${install}`,
  'sandbox-errors.domain-not-one-click': ({ domain }) =>
    `Berth never opens ${domain} with one click: it is this computer, a private network or a cloud's metadata service, where Berth itself and other local services listen. If the server truly needs it, add it by hand in the server's Sandbox tab`,
  'sandbox-errors.own-port': ({ domain }) =>
    `${domain} is Berth's own port on this computer (its window's bridge or its apps' sandbox): a sandboxed server may never reach it`,
  'sandbox-errors.folder-entry': ({ folder, issue }) => `${folderEntryIssueText(issue)}: ${folder}`,
  'sandbox-errors.folder-protected': ({ folder, kind, place }) =>
    `${protectedFolderProblem(protectedPlaceText({ kind, place }))}: ${folder}`,
  'sandbox-errors.folder-protected-link': ({ folder, real, kind, place }) =>
    `${protectedFolderProblem(`${folder} leads to ${real}, and ${protectedPlaceText({ kind, place })}`)}: ${folder}`,
  // Why a denial offers no one-click fix (SandboxDenial.noFixMessage): a clause the denial notice words after "Berth never allows this:".
  'sandbox-errors.no-fix-network': () =>
    'it is this computer, a private network or a cloud metadata service: add it by hand in its Sandbox tab if the server truly needs it',
  'sandbox-errors.no-fix-unreadable': () => 'Berth keeps it unreadable to every server',
  'sandbox-errors.no-fix-protected': ({ kind, place }) => protectedPlaceText({ kind, place }),
  'sandbox-errors.no-fix-write': () => "it holds credentials, startup files or Berth's own files",
  // A folder typed in the sandbox editor, refused at its row before anything is sent (folderEntryWords).
  'sandbox-errors.entry-issue': ({ issue }) => folderEntryIssueText(issue),
  'sandbox-errors.entry-protected': ({ kind, place }) => protectedFolderProblem(protectedPlaceText({ kind, place })),
});

/** What is wrong with a typed folder, as folderEntryProblem says it, with its code; undefined when it is fine. */
export function folderEntryWords(path: string, home: string, configDir?: string): CodedText | undefined {
  const issue = folderEntryIssue(path);
  if (issue !== undefined) return sandboxError('sandbox-errors.entry-issue', { issue });
  const place = protectedFolderPlace(path, { home, configDir });
  return place === undefined ? undefined : sandboxError('sandbox-errors.entry-protected', place);
}
