import { dirname } from 'node:path';
import { SECRET_PATHS_IN_HOME, STARTUP_PATHS_IN_HOME, denialMessage, folderEntryProblem, isWithin } from '../../shared/domain/sandbox';
import type { SandboxDenial, SandboxDenialKind, SandboxPolicy } from '../../shared/domain/sandbox';

/** What a denial is about, before it is dated and named. */
export interface DeniedAccess {
  kind: SandboxDenialKind;
  target: string;
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
    const hiddenForRead = policy.denyRead.some((denied) => isWithin(path, denied)) && !policy.allowRead.some((allowed) => isWithin(path, allowed));
    const writable = policy.allowWrite.some((allowed) => isWithin(path, allowed)) && !policy.denyWrite.some((denied) => isWithin(path, denied));
    if (readOnly && !writable) return { kind: 'write', target: path };
    if ((noPermission || notFound) && hiddenForRead) return { kind: 'read', target: path };
  }
  return undefined;
}

/** The host of a proxy's refusal line ("deny network-outbound api.example.com:443 (…)"). */
export function parseNetworkViolation(line: string): DeniedAccess | undefined {
  const match = /network-outbound\s+(\S+)/.exec(line);
  if (match?.[1] === undefined) return undefined;
  return { kind: 'network', target: match[1].replace(/:(80|443)$/, '') };
}

/**
 * What "allow" would add for a denial: the folder written to (a file's
 * folder) or the host. Nothing for a read (the sandbox denies reads only of
 * secrets and Berth's own files) nor for a startup file, a secret, the whole
 * disk or home.
 */
export function fixFor(access: DeniedAccess, home: string, isFolder: (path: string) => boolean): SandboxDenial['fix'] {
  if (access.kind === 'network') return { domain: access.target };
  if (access.kind === 'read') return undefined;
  const protectedPaths = [...SECRET_PATHS_IN_HOME, ...STARTUP_PATHS_IN_HOME].map((relative) => `${home.replace(/\/+$/, '')}/${relative}`);
  if (protectedPaths.some((path) => isWithin(access.target, path))) return undefined;
  const folder = isFolder(access.target) ? access.target : dirname(access.target);
  return folderEntryProblem(folder, home) === undefined ? { folder } : undefined;
}

/** A dated, worded denial of one server. */
export function denialOf(server: string, access: DeniedAccess, home: string, at: number, fix: SandboxDenial['fix']): SandboxDenial {
  return { server, ...access, message: denialMessage(access.kind, access.target, home), at, ...(fix === undefined ? {} : { fix }) };
}
