import type { SandboxPolicyView } from '../../../shared/contract/sandbox';
import { tildePath, type SandboxDenial, type SandboxSupport } from '../../../shared/domain/sandbox';
import { translate } from '../../i18n/use-t';
import { hostText } from '../../i18n/host-text';

// Worded when the components render (they use useT(), so a language switch re-renders these too).
// What the host derived (`words`, a denial's message, `install`) is the host's English; a denial's `noFix` has its code.

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
    // The host words a derived policy; before one exists, the catalog's general words.
    read: base?.words.read ?? translate('sandbox.words.read'),
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

/** Why the switch is disabled, and what would make it work (the reason and the install hint are the host's). */
export function unavailableSentence(support: SandboxSupport): string {
  const why = support.reason ?? translate('sandbox.words.notSupportedOn', { platform: support.platform });
  const sentence = translate('sandbox.words.unavailable', { why });
  return support.install === undefined ? sentence : `${sentence} ${support.install}`;
}

/** The action a denial offers, or undefined when Berth never allows it (a secret, a startup file). */
export function denialActionLabel(denial: Pick<SandboxDenial, 'fix'>): string | undefined {
  if (denial.fix === undefined) return undefined;
  return translate('folder' in denial.fix ? 'sandbox.words.allowFolder' : 'sandbox.words.allowDomain');
}

/** Why a denial offers nothing, saying what the place holds when the host said ("Berth never allows this: it holds your home folder (/home/ann)."). */
export function neverSentence(denial: Pick<SandboxDenial, 'noFix' | 'noFixMessage'>): string {
  return denial.noFix === undefined
    ? translate('sandbox.words.neverDefault')
    : translate('sandbox.words.never', { reason: hostText(denial.noFixMessage, denial.noFix) });
}

/** "The server reports the sandbox blocked a write to ~/x", "Blocked by the sandbox: connection to host" (the host's message, capitalised for a line of its own). */
export function denialSentence(denial: Pick<SandboxDenial, 'message'>): string {
  return denial.message.charAt(0).toUpperCase() + denial.message.slice(1);
}
