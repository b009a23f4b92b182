import type { SandboxPolicyView } from '../../../shared/contract/sandbox';
import { tildePath, type SandboxDenial, type SandboxSupport } from '../../../shared/domain/sandbox';

/** What the sandbox lets a server do, in the words the form, the detail and the reviews show. */
export interface PolicyLines {
  /** Folders it may change besides its own (shown with `~`); roots first, then the person's extra folders. */
  writeFolders: string[];
  /** "Can read the system and its own program, but not: …" */
  read: string;
  /** Domains it may reach; empty: no network at all. */
  domains: string[];
  /** What stays closed inside a writable folder that is home or holds it. */
  closedInside?: string | undefined;
}

export const OWN_FOLDERS = 'its own folders (data, temporary files, cache)';
/** Said when Berth has not derived the policy yet (a server not added yet): its roots are whatever it is given. */
export const READ_WORDS =
  "Can read the system and its own program, but not: SSH and GPG keys, cloud and package-manager credentials, browser profiles, Berth's settings and secrets";

/**
 * The person's home, read off a derived policy: the first secret it denies
 * is `~/.ssh` (shared/domain/sandbox.ts SECRET_PATHS_IN_HOME), so folders
 * typed in the form can be shown with `~` as the host shows the rest.
 */
export function homeOf(view: SandboxPolicyView | undefined): string | undefined {
  const ssh = view?.policy.denyRead.find((path) => path.endsWith('/.ssh'));
  return ssh === undefined ? undefined : ssh.slice(0, -'/.ssh'.length);
}

/**
 * The policy as it would be with the lists being edited: the host's
 * derivation for the saved setting, with the saved extra folders and domains
 * replaced by the draft's. Without a derivation (a new server) only the
 * draft is known, and its roots are said in words.
 */
export function draftPolicyLines(
  base: SandboxPolicyView | undefined,
  folders: readonly string[],
  domains: readonly string[],
): PolicyLines {
  const home = homeOf(base);
  const shown = (path: string) => (home === undefined ? path : tildePath(path, home));
  const savedExtra = new Set((base?.settings.allowedFolders ?? []).map(shown));
  const roots = (base?.words.writeFolders ?? []).filter((path) => !savedExtra.has(path));
  const extra = folders
    .map((path) => path.trim())
    .filter((path) => path !== '')
    .map(shown);
  return {
    writeFolders: [...new Set([...roots, ...extra])],
    read: base?.words.read ?? READ_WORDS,
    domains: [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter((domain) => domain !== ''))],
    closedInside: base?.words.closedInside,
  };
}

/** The lines of a saved policy, as the host derived them. */
export function savedPolicyLines(view: SandboxPolicyView): PolicyLines {
  return {
    writeFolders: view.words.writeFolders,
    read: view.words.read,
    domains: view.policy.allowedDomains,
    closedInside: view.words.closedInside,
  };
}

/** One sentence per line, for screen readers and tests: "Can change files only in: ~/x, and its own folders (…)". */
export function writeSentence(lines: PolicyLines, rootsUnknown = false): string {
  const folders = rootsUnknown ? ['the roots you give it', ...lines.writeFolders] : lines.writeFolders;
  return folders.length === 0
    ? `Can change files only in ${OWN_FOLDERS}`
    : `Can change files only in: ${folders.join(', ')}, and ${OWN_FOLDERS}`;
}

export function networkSentence(lines: PolicyLines): string {
  return lines.domains.length === 0 ? 'No network at all' : `Network only to: ${lines.domains.join(', ')}`;
}

/** Why the switch is disabled, and what would make it work. */
export function unavailableSentence(support: SandboxSupport): string {
  const why = support.reason ?? `not supported on ${support.platform}`;
  return support.install === undefined
    ? `The sandbox is unavailable here: ${why}.`
    : `The sandbox is unavailable here: ${why}. ${support.install}`;
}

/** The action a denial offers, or undefined when Berth never allows it (a secret, a startup file). */
export function denialActionLabel(denial: Pick<SandboxDenial, 'fix'>): string | undefined {
  if (denial.fix === undefined) return undefined;
  return 'folder' in denial.fix ? 'Allow this folder' : 'Allow this domain';
}

/** Why a denial offers nothing, saying what the place holds when the host said ("Berth never allows this: it holds your home folder (/home/ann)."). */
export function neverSentence(denial: Pick<SandboxDenial, 'noFix'>): string {
  return `Berth never allows this: ${denial.noFix ?? 'it holds credentials or runs at login'}.`;
}

/** Said before allowing a denial read from the server's own output: its words, not Berth's observation. */
export const CLAIM_WORDS =
  'This denial comes from the server’s own output, which it can word as it likes. Allow the folder only if you expected this server to write there.';

/** "The server reports the sandbox blocked a write to ~/x", "Blocked by the sandbox: connection to host" (the host's message, capitalised for a line of its own). */
export function denialSentence(denial: Pick<SandboxDenial, 'message'>): string {
  return denial.message.charAt(0).toUpperCase() + denial.message.slice(1);
}
