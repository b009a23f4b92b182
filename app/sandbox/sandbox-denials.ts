import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { denialMessage, isWithin, protectedFolderPlace } from '../../shared/domain/sandbox';
import { sandboxError, type SandboxErrorCode, type SandboxErrorMessages } from '../../shared/domain/sandbox-errors';
import type { SandboxDenial, SandboxDenialKind, SandboxDenialSource, SandboxPolicy } from '../../shared/domain/sandbox';
import { domainAllowProblem, folderAllowProblem } from './sandbox-allow-check';
import type { BerthPlaces } from './sandbox-allow-check';

/** What a denial is about, before it is dated and named. */
export interface DeniedAccess {
  kind: SandboxDenialKind;
  target: string;
  source: SandboxDenialSource;
}

/** Words runtimes print for a refused write: Node's EROFS, libc's strerror, Python's Errno 30. */
const READ_ONLY = /\bEROFS\b|read-only file system|\[Errno 30\]/i;
/** A refused open: EACCES/EPERM in Node, Python, Go, coreutils. */
const NO_PERMISSION = /\bEACCES\b|\bEPERM\b|permission denied|operation not permitted|\[Errno 13\]/i;
/** A folder the sandbox hides (denyRead of a folder mounts an empty one over it). */
const NOT_FOUND = /\bENOENT\b|no such file or directory|\[Errno 2\]/i;
/** Absolute paths: quoted ('…', "…", `…`) or bare up to a colon or space (bash: "/x: Read-only file system"). */
const PATHS = /'(\/[^'\n]*)'|"(\/[^"\n]*)"|`(\/[^`\n]*)`|(?:^|[\s(=])(\/[^\s:'"`,)]+)/g;

function pathsIn(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(PATHS)) {
    const path = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (path !== undefined && path.length > 1) found.push(path.replace(/\/+$/, ''));
  }
  return found;
}

/**
 * The refusal a sandboxed server's stderr (or start error) line reports, if
 * it is one the sandbox caused: a read of a denied path (EACCES, or ENOENT
 * inside a hidden folder), a write outside its writable folders (EROFS:
 * everything else is mounted read-only). A plain permission error on a path the sandbox does not restrict
 * is not the sandbox's, and is not reported as one.
 */
export function parseDenial(line: string, policy: SandboxPolicy): DeniedAccess | undefined {
  const readOnly = READ_ONLY.test(line);
  const noPermission = NO_PERMISSION.test(line);
  const notFound = NOT_FOUND.test(line);
  if (!readOnly && !noPermission && !notFound) return undefined;
  // The last path first: the one refused comes after the program's own name ("/usr/bin/bash: line 1: /x: Read-only…") and is a rename's target.
  for (const path of pathsIn(line).reverse()) {
    const hiddenForRead =
      policy.denyRead.some((denied) => isWithin(path, denied)) &&
      !policy.allowRead.some((allowed) => isWithin(path, allowed));
    const writable =
      policy.allowWrite.some((allowed) => isWithin(path, allowed)) &&
      !policy.denyWrite.some((denied) => isWithin(path, denied));
    if (readOnly && !writable) return { kind: 'write', target: path, source: 'server' };
    if ((noPermission || notFound) && hiddenForRead) return { kind: 'read', target: path, source: 'server' };
  }
  return undefined;
}

/** The host of a proxy's refusal line ("deny network-outbound api.example.com:443 (…)"). */
export function parseNetworkViolation(line: string): DeniedAccess | undefined {
  const match = /network-outbound\s+(\S+)/.exec(line);
  if (match?.[1] === undefined) return undefined;
  return { kind: 'network', target: match[1].replace(/:(80|443)$/, ''), source: 'proxy' };
}

/** What a denial offers: the one fix, or why there is none (in words saying what the place holds). */
export type DenialOffer = Pick<SandboxDenial, 'fix' | 'noFix' | 'noFixMessage'>;

/**
 * What "allow" would add for a denial: the folder written to (a file's
 * folder) or the host — checked as `sandbox.allow` checks it, so a forged
 * line naming Berth's folder, home or a folder holding it offers nothing.
 * Nothing for a read (the sandbox denies reads only of secrets and Berth's
 * own files), nor for this computer, a private network or a metadata service.
 */
export function offerFor(access: DeniedAccess, places: BerthPlaces, isFolder: (path: string) => boolean): DenialOffer {
  if (access.kind === 'network') {
    const problem = domainAllowProblem(access.target);
    return problem === undefined ? { fix: { domain: access.target } } : noFix('sandbox-errors.no-fix-network', {});
  }
  if (access.kind === 'read') {
    const place = protectedFolderPlace(access.target, places);
    return place === undefined
      ? noFix('sandbox-errors.no-fix-unreadable', {})
      : noFix('sandbox-errors.no-fix-protected', place);
  }
  const folder = isFolder(access.target) ? access.target : dirname(access.target);
  if (folderAllowProblem(folder, places) === undefined) return { fix: { folder } };
  const place = protectedFolderPlace(access.target, places) ?? protectedFolderPlace(folder, places);
  return place === undefined
    ? noFix('sandbox-errors.no-fix-write', {})
    : noFix('sandbox-errors.no-fix-protected', place);
}

/** Why a denial offers nothing, in English and as its code. */
function noFix<C extends NoFixCode>(code: C, params: SandboxErrorMessages[C]): DenialOffer {
  const { text, hostMessage } = sandboxError(code, params);
  return { noFix: text, noFixMessage: hostMessage };
}
type NoFixCode = Extract<SandboxErrorCode, `sandbox-errors.no-fix-${string}`>;

/** A dated, worded denial of one server. */
export function denialOf(
  server: string,
  access: DeniedAccess,
  home: string,
  at: number,
  offer: DenialOffer,
): SandboxDenial {
  return { server, ...access, message: denialMessage(access.kind, access.target, home, access.source), at, ...offer };
}

const MAX_DENIALS = 50;

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The latest denials of each server since Berth started (newest last, at most 50 each), each with its offer. */
export class RecentDenials {
  private readonly byServer = new Map<string, SandboxDenial[]>();

  record(server: string, access: DeniedAccess, places: BerthPlaces): SandboxDenial {
    const denial = denialOf(server, access, places.home, Date.now(), offerFor(access, places, isFolder));
    const list = this.byServer.get(server) ?? [];
    list.push(denial);
    if (list.length > MAX_DENIALS) list.splice(0, list.length - MAX_DENIALS);
    this.byServer.set(server, list);
    return denial;
  }

  recent(server: string): SandboxDenial[] {
    return [...(this.byServer.get(server) ?? [])];
  }

  forget(server: string): void {
    this.byServer.delete(server);
  }
}
