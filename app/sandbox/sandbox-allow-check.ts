import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { folderEntryIssue, protectedFolderPlace } from '../../shared/domain/sandbox';
import type { ProtectedPlaces } from '../../shared/domain/sandbox';
import type { CodedText } from '../../shared/domain/host-wording';
import { sandboxError } from '../../shared/domain/sandbox-errors';
import { isLocalOrPrivateTarget, isThisComputerTarget, targetPort } from '../../shared/domain/sandbox-local-target';

/** The places the host checks folders against: both known, always. */
export interface BerthPlaces {
  home: string;
  configDir: string;
}

/**
 * `path` with the symlinks of its existing part resolved and the rest as
 * written: a link to `~/.config/berth` is checked as that folder, and so is a
 * folder not made yet under a link.
 */
export function realPathOf(path: string): string {
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}

/**
 * Why the host refuses `path` as a folder a sandboxed server may write, or
 * undefined: the entry's own problems, then the protected places checked on
 * the folder as written and as it really is (a symlink may lead into
 * Berth's folder or to a folder holding home), against home and the config
 * folder as written and as they really are.
 */
export function folderAllowProblem(path: string, places: BerthPlaces): string | undefined {
  const refusal = folderRefusal(path, places);
  // The refusal's English ends with the folder; what is wrong with it is the rest.
  return refusal?.text.slice(0, -`: ${path}`.length);
}

/**
 * The host's refusal of `path` as a folder a sandboxed server may write (what
 * is wrong, then the folder), with its code, or undefined: see {@linkcode folderAllowProblem}.
 */
export function folderRefusal(path: string, places: BerthPlaces): CodedText | undefined {
  const issue = folderEntryIssue(path);
  if (issue !== undefined) return sandboxError('sandbox-errors.folder-entry', { folder: path, issue });
  const written = protectedFolderPlace(path, places);
  if (written !== undefined) return sandboxError('sandbox-errors.folder-protected', { folder: path, ...written });
  const real = realPathOf(path);
  const realPlaces: ProtectedPlaces = { home: realPathOf(places.home), configDir: realPathOf(places.configDir) };
  for (const [candidate, where] of [
    [path, realPlaces],
    [real, places],
    [real, realPlaces],
  ] as const) {
    const found = protectedFolderPlace(candidate, where);
    if (found === undefined) continue;
    return real === path
      ? sandboxError('sandbox-errors.folder-protected', { folder: path, ...found })
      : sandboxError('sandbox-errors.folder-protected-link', { folder: path, real, ...found });
  }
  return undefined;
}

/**
 * Why a domain is never allowed with one click, or undefined: this machine
 * (Berth's own bridge listens on loopback), a private or link-local network,
 * a cloud's metadata service.
 */
export function domainAllowProblem(domain: string): CodedText | undefined {
  if (!isLocalOrPrivateTarget(domain)) return undefined;
  return sandboxError('sandbox-errors.domain-not-one-click', { domain });
}

/**
 * The files and folders in Berth's config folder and its `sandbox/` folder
 * now (absolute paths); nothing for a folder not made yet. Symlinks and
 * sockets (Chromium's `Singleton*` in Electron's folder) are left out: the
 * runtime would have to mount over them, and a link cannot be written through
 * to its target by a server that may not write the target.
 */
export function berthEntriesIn(configDir: string): string[] {
  const list = (folder: string): string[] => {
    try {
      return readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isFile() || entry.isDirectory())
        .map((entry) => join(folder, entry.name));
    } catch {
      return [];
    }
  };
  return [...list(configDir), ...list(join(configDir, 'sandbox'))];
}

/**
 * Why a domain is never allowed at all, or undefined: a port of this computer
 * Berth itself listens on (browser mode's bridge, the apps' sandbox proxy).
 * Asked again at each start: those ports change from run to run, so an entry
 * typed for another service may name Berth's own the next time.
 */
export function ownPortProblem(domain: string, ownPorts: readonly number[]): CodedText | undefined {
  const port = targetPort(domain);
  if (port === undefined || !ownPorts.includes(port) || !isThisComputerTarget(domain)) return undefined;
  return sandboxError('sandbox-errors.own-port', { domain });
}
