import { HostError } from '../../shared/result';
import type { CodedText } from '../../shared/domain/host-wording';
import { rootError } from '../../shared/domain/root-errors';

/**
 * `file://` URIs for roots (RFC 8089 over RFC 3986). Paths are parsed by hand
 * rather than with `path.resolve`/`URL`, because both silently resolve `..`
 * and a root that tries traversal must be refused, not quietly rewritten.
 * The flavour (POSIX or Windows) follows an injected platform so both can be
 * tested on any machine.
 */

/** A parsed absolute root path: its segments, and where they hang from. */
interface ParsedPath {
  /** `C` for `C:\…`; absent for POSIX and UNC. */
  drive?: string;
  /** `server` of a UNC path `\\server\share\…`. */
  host?: string;
  segments: string[];
}

const isWindows = (platform: NodeJS.Platform) => platform === 'win32';

const WINDOWS_DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;
const WINDOWS_DRIVE_RELATIVE = /^[A-Za-z]:(?![\\/])/;
// Characters Windows does not allow in a file name (':' would name an alternate data stream).
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
const hasControlChar = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 0x20);
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
// RFC 3986 unreserved + sub-delims + ':' '@' '/' and '%' (checked separately as pct-encoded).
const URI_PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

/** A path refused, with its code: the person types paths (roots.add, the folder browser), so the renderer words them. */
function invalid(words: CodedText): never {
  throw HostError.coded('INVALID_INPUT', words);
}

// A file: URI comes from a program, never from the person (they give paths): its refusals stay English.
function invalidUri(message: string): never {
  throw new HostError('INVALID_INPUT', message);
}

function checkSegments(original: string, segments: string[], windows: boolean): void {
  for (const segment of segments) {
    if (segment === '.' || segment === '..') {
      invalid(rootError('root-errors.path-dot-segment', { path: original, segment }));
    }
    if (segment.includes('\u0000')) invalid(rootError('root-errors.path-nul', { path: original }));
    if (windows && (WINDOWS_FORBIDDEN.test(segment) || hasControlChar(segment))) {
      invalid(rootError('root-errors.path-windows-name', { path: original, name: segment }));
    }
  }
}

function parsePosix(path: string): ParsedPath {
  if (WINDOWS_DRIVE.test(path) || WINDOWS_DRIVE_RELATIVE.test(path) || path.startsWith('\\\\')) {
    invalid(rootError('root-errors.path-windows-on-posix', { path }));
  }
  if (!path.startsWith('/')) invalid(rootError('root-errors.path-relative-posix', { path }));
  // Repeated and trailing slashes name the same folder, so they are dropped, not refused.
  const segments = path.split('/').filter((s) => s !== '');
  checkSegments(path, segments, false);
  return { segments };
}

function parseWindows(path: string): ParsedPath {
  if (/^[\\/]{2}[?.][\\/]/.test(path)) invalid(rootError('root-errors.path-device', { path }));
  if (/^[\\/]{2}/.test(path)) {
    const [host = '', share = '', ...rest] = path.slice(2).split(/[\\/]/);
    if (host === '' || share === '') invalid(rootError('root-errors.path-unc-incomplete', { path }));
    if (!HOST_NAME.test(host)) invalid(rootError('root-errors.path-bad-host', { path, host }));
    const segments = [share, ...rest.filter((s) => s !== '')];
    checkSegments(path, segments, true);
    // Host names are case-insensitive; one spelling keeps duplicate detection honest.
    return { host: host.toLowerCase(), segments };
  }
  if (WINDOWS_DRIVE_RELATIVE.test(path))
    invalid(rootError('root-errors.path-drive-relative', { path, drive: path.slice(0, 2) }));
  if (!WINDOWS_DRIVE.test(path)) {
    if (/^[\\/]/.test(path)) invalid(rootError('root-errors.path-no-drive', { path }));
    invalid(rootError('root-errors.path-relative-windows', { path }));
  }
  const drive = path.charAt(0).toUpperCase();
  const segments = path
    .slice(2)
    .split(/[\\/]/)
    .filter((s) => s !== '');
  checkSegments(path, segments, true);
  return { drive, segments };
}

function parsePath(path: string, platform: NodeJS.Platform): ParsedPath {
  if (typeof path !== 'string' || path.trim() === '') invalid(rootError('root-errors.path-empty', {}));
  if (path.includes('\u0000')) invalid(rootError('root-errors.path-nul', { path }));
  return isWindows(platform) ? parseWindows(path) : parsePosix(path);
}

function formatPath(parsed: ParsedPath, platform: NodeJS.Platform): string {
  if (!isWindows(platform)) return `/${parsed.segments.join('/')}`;
  if (parsed.host !== undefined) return `\\\\${parsed.host}\\${parsed.segments.join('\\')}`;
  return `${parsed.drive ?? ''}:\\${parsed.segments.join('\\')}`;
}

function encodeSegment(segment: string, original: string): string {
  try {
    // encodeURIComponent leaves only unreserved and !'()* bare, all legal in a path segment.
    return encodeURIComponent(segment);
  } catch {
    return invalid(rootError('root-errors.path-not-unicode', { path: original }));
  }
}

/**
 * The canonical spelling of an absolute folder path: separators unified,
 * repeated and trailing separators dropped, drive letter upper-cased.
 * Throws `HostError('INVALID_INPUT')` for relative paths, `.`/`..` segments,
 * or a path of the other platform's flavour.
 */
export function normalizeRootPath(path: string, platform: NodeJS.Platform): string {
  return formatPath(parsePath(path, platform), platform);
}

/**
 * The `file://` URI of an absolute folder path, percent-encoded (UTF-8).
 * POSIX `/a b` → `file:///a%20b`; Windows `C:\x` → `file:///C:/x`,
 * `\\server\share` → `file://server/share`.
 */
export function pathToFileUri(path: string, platform: NodeJS.Platform): string {
  const parsed = parsePath(path, platform);
  const encoded = parsed.segments.map((s) => encodeSegment(s, path));
  if (parsed.host !== undefined) return `file://${parsed.host}/${encoded.join('/')}`;
  if (parsed.drive !== undefined) return `file:///${parsed.drive}:/${encoded.join('/')}`;
  return `file:///${encoded.join('/')}`;
}

function decodeSegment(raw: string, uri: string, windows: boolean): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return invalidUri(
      `'${uri}' has a malformed percent-encoding in '${raw}' (it must be UTF-8, each byte written %XX)`,
    );
  }
  if (decoded.includes('/') || (windows && decoded.includes('\\')))
    invalidUri(`'${uri}' contains an encoded path separator in '${raw}'`);
  if (decoded.includes('\u0000')) invalidUri(`'${uri}' contains an encoded NUL character`);
  return decoded;
}

/**
 * The absolute path a `file:` URI names, for the given platform. Refuses other
 * schemes, queries and fragments, encoded `/` (and `\` on Windows) or NUL,
 * `.`/`..` segments (also when encoded), and URIs of the other flavour.
 */
export function fileUriToPath(uri: string, platform: NodeJS.Platform): string {
  if (typeof uri !== 'string' || uri === '') invalidUri('the URI is empty');
  const colon = uri.indexOf(':');
  const scheme = colon < 0 ? '' : uri.slice(0, colon);
  if (scheme.toLowerCase() !== 'file') invalidUri(`'${uri}' is not a file: URI`);
  if (uri.includes('?')) invalidUri(`'${uri}' has a query ('?…'); a root URI names a folder and nothing else`);
  if (uri.includes('#')) invalidUri(`'${uri}' has a fragment ('#…'); a root URI names a folder and nothing else`);
  let rest = uri.slice(colon + 1);
  if (!URI_PATH_CHARS.test(rest)) {
    const bad = [...rest].find((ch) => !URI_PATH_CHARS.test(ch)) ?? '';
    invalidUri(`'${uri}' contains ${JSON.stringify(bad)}, which must be percent-encoded in a URI`);
  }
  let host = '';
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    host = rest.slice(2, slash < 0 ? undefined : slash);
    rest = slash < 0 ? '/' : rest.slice(slash);
  }
  if (!rest.startsWith('/')) invalidUri(`'${uri}' has no absolute path`);
  if (host.toLowerCase() === 'localhost') host = '';
  const windows = isWindows(platform);
  const rawSegments = rest.split('/').filter((s) => s !== '');
  const segments = rawSegments.map((s) => decodeSegment(s, uri, windows));
  if (segments.some((s) => s === '.' || s === '..')) invalidUri(`'${uri}' contains a '.' or '..' segment`);

  if (!windows) {
    if (host !== '') invalidUri(`'${uri}' names the remote host '${host}'; only local folders can be roots here`);
    if (segments[0] !== undefined && /^[A-Za-z]:$/.test(segments[0])) {
      invalidUri(`'${uri}' is a Windows drive URI, but Berth is running on a POSIX system here`);
    }
    return normalizeRootPath(`/${segments.join('/')}`, platform);
  }
  if (host !== '') {
    if (!HOST_NAME.test(host)) invalidUri(`'${uri}': '${host}' is not a valid server name`);
    return normalizeRootPath(`\\\\${host}\\${segments.join('\\')}`, platform);
  }
  const [drive, ...tail] = segments;
  if (drive === undefined || !/^[A-Za-z]:$/.test(drive))
    invalidUri(`'${uri}' has no drive letter (expected file:///C:/…)`);
  return normalizeRootPath(`${drive}\\${tail.join('\\')}`, platform);
}
