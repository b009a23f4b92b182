import { constants } from 'node:fs';
import { bundleError } from '../../shared/domain/bundle-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { errorMessage } from '../../shared/error-message';
import { crc32, createInflateRaw } from 'node:zlib';
import { BundleRefused } from './bundle-refused';
import { entryData, readZipDirectory, type ZipEntry } from './zip-directory';

/** How much an archive may unpack to. */
export interface ExtractLimits {
  maxEntries: number;
  /** One file, as written (not as its header claims). */
  maxEntryBytes: number;
  /** Every file together, as written. */
  maxTotalBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 50_000,
  maxEntryBytes: 512 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
};

export interface ExtractResult {
  files: number;
  bytes: number;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * The entry's path inside `root`, or a refusal: no absolute or drive paths,
 * no `..` (zip-slip), no NUL, no links or device files. Checked on the name's
 * segments and again on the resolved path, so no spelling gets out.
 */
export function entryTarget(root: string, entry: ZipEntry): string {
  const name = entry.name;
  if (name === '' || name.includes('\0')) throw new BundleRefused(bundleError('bundle-errors.invalid-name', {}));
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw new BundleRefused(bundleError('bundle-errors.absolute-path', { name }));
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new BundleRefused(bundleError('bundle-errors.zip-slip', { name }));
  const type = entry.unixMode === undefined ? undefined : entry.unixMode & S_IFMT;
  if (type === S_IFLNK) throw new BundleRefused(bundleError('bundle-errors.symlink', { name }));
  if (type !== undefined && type !== 0 && type !== S_IFREG && type !== S_IFDIR)
    throw new BundleRefused(bundleError('bundle-errors.not-regular', { name }));
  const target = resolve(root, ...segments);
  const rel = relative(resolve(root), target);
  if (rel === '' ? !entry.directory : rel.startsWith('..') || isAbsolute(rel)) {
    throw new BundleRefused(bundleError('bundle-errors.zip-slip', { name }));
  }
  return target;
}

/**
 * Inflates a deflated entry piece by piece into `take`, which may refuse (BundleRefused, passed on)
 * before the rest is inflated; any other failure is a damaged archive, said by `damaged`.
 */
async function inflateInto(
  data: Buffer,
  take: (chunk: Buffer) => void | Promise<void>,
  damaged: (error: unknown) => CodedText,
): Promise<void> {
  const inflate = createInflateRaw();
  const done = (async () => {
    for await (const chunk of inflate) await take(chunk as Buffer);
  })();
  inflate.end(data);
  try {
    await done;
  } catch (error) {
    inflate.destroy();
    if (error instanceof BundleRefused) throw error;
    throw new BundleRefused(damaged(error));
  }
}

/** Writes one entry's bytes, counting what really comes out against its header and the limits. */
async function writeEntry(
  archive: Buffer,
  entry: ZipEntry,
  file: FileHandle,
  budget: { total: number },
  limits: ExtractLimits,
): Promise<number> {
  const data = entryData(archive, entry);
  let written = 0;
  let checksum = 0;
  const take = async (chunk: Buffer): Promise<void> => {
    written += chunk.length;
    budget.total += chunk.length;
    if (written > entry.size)
      throw new BundleRefused(bundleError('bundle-errors.past-header', { name: entry.name, size: entry.size }));
    if (written > limits.maxEntryBytes)
      throw new BundleRefused(
        bundleError('bundle-errors.entry-too-large', { name: entry.name, limit: mib(limits.maxEntryBytes) }),
      );
    if (budget.total > limits.maxTotalBytes)
      throw new BundleRefused(bundleError('bundle-errors.total-too-large', { limit: mib(limits.maxTotalBytes) }));
    checksum = crc32(chunk, checksum);
    await file.write(chunk);
  };
  if (entry.method === 0) {
    for (let at = 0; at < data.length; at += 1024 * 1024) await take(data.subarray(at, at + 1024 * 1024));
  } else {
    // Streamed, so a small entry that inflates to gigabytes is stopped at the limit, never held whole.
    await inflateInto(data, take, (error) =>
      bundleError('bundle-errors.entry-damaged', {
        name: entry.name,
        detail: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  if (written !== entry.size)
    throw new BundleRefused(
      bundleError('bundle-errors.entry-size-mismatch', { name: entry.name, written, size: entry.size }),
    );
  if (checksum >>> 0 !== entry.crc32 >>> 0)
    throw new BundleRefused(bundleError('bundle-errors.entry-checksum', { name: entry.name }));
  return written;
}

/** Every entry checked before anything is written: types, names (also case-insensitive duplicates), methods, declared sizes. */
function checkEntries(root: string, entries: readonly ZipEntry[], limits: ExtractLimits): Map<ZipEntry, string> {
  if (entries.length > limits.maxEntries)
    throw new BundleRefused(
      bundleError('bundle-errors.too-many-entries', { count: entries.length, max: limits.maxEntries }),
    );
  const targets = new Map<ZipEntry, string>();
  const seen = new Set<string>();
  let declared = 0;
  for (const entry of entries) {
    const target = entryTarget(root, entry);
    if (entry.directory) {
      targets.set(entry, target);
      continue;
    }
    if (entry.encrypted) throw new BundleRefused(bundleError('bundle-errors.entry-encrypted', { name: entry.name }));
    if (entry.method !== 0 && entry.method !== 8)
      throw new BundleRefused(bundleError('bundle-errors.entry-method', { name: entry.name, method: entry.method }));
    if (entry.size > limits.maxEntryBytes)
      throw new BundleRefused(
        bundleError('bundle-errors.entry-too-large', { name: entry.name, limit: mib(limits.maxEntryBytes) }),
      );
    declared += entry.size;
    if (declared > limits.maxTotalBytes)
      throw new BundleRefused(bundleError('bundle-errors.total-too-large', { limit: mib(limits.maxTotalBytes) }));
    // Two names for one file on a case-insensitive disk: which one wins would depend on the order.
    const key = target.toLowerCase();
    if (seen.has(key)) throw new BundleRefused(bundleError('bundle-errors.entry-twice', { name: entry.name }));
    seen.add(key);
    targets.set(entry, target);
  }
  return targets;
}

/**
 * Unpacks a zip into `root` (an empty folder the caller made and owns):
 * every entry checked first, then written with O_EXCL (never through
 * something already there), sizes counted as written. On a refusal the
 * caller removes `root`; nothing was written anywhere else.
 */
export async function extractZip(
  archive: Buffer,
  root: string,
  limits: ExtractLimits = DEFAULT_EXTRACT_LIMITS,
): Promise<ExtractResult> {
  const entries = readZipDirectory(archive);
  const targets = checkEntries(root, entries, limits);
  const budget = { total: 0 };
  let files = 0;
  for (const [entry, target] of targets) {
    if (entry.directory) {
      try {
        await mkdir(target, { recursive: true, mode: 0o700 });
      } catch (error) {
        throw new BundleRefused(
          bundleError('bundle-errors.entry-cannot-unpack', { name: entry.name, detail: errorMessage(error) }),
        );
      }
      continue;
    }
    // Executables keep their execute bit (a binary bundle's server); nothing gets group/other write.
    const mode = entry.unixMode !== undefined && (entry.unixMode & 0o111) !== 0 ? 0o700 : 0o600;
    let file: FileHandle;
    try {
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      file = await open(
        target,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
        mode,
      );
    } catch (error) {
      // e.g. a file "a" and a file "a/b": the archive describes no tree that can exist.
      throw new BundleRefused(
        bundleError('bundle-errors.entry-cannot-unpack', { name: entry.name, detail: errorMessage(error) }),
      );
    }
    try {
      await writeEntry(archive, entry, file, budget, limits);
    } finally {
      await file.close();
    }
    files += 1;
  }
  return { files, bytes: budget.total };
}

/** The entry `manifest.json` at the archive's top, read alone (bounded) before anything is extracted. */
export async function readTopLevelFile(archive: Buffer, name: string, maxBytes: number): Promise<Buffer | undefined> {
  const entries = readZipDirectory(archive);
  const matches = entries.filter((entry) => entry.name === name);
  if (matches.length === 0) return undefined;
  if (matches.length > 1) throw new BundleRefused(bundleError('bundle-errors.file-twice', { name }));
  const entry = matches[0]!;
  if (entry.directory) throw new BundleRefused(bundleError('bundle-errors.file-folder', { name }));
  if (entry.encrypted) throw new BundleRefused(bundleError('bundle-errors.file-encrypted', { name }));
  if (entry.size > maxBytes)
    throw new BundleRefused(bundleError('bundle-errors.file-too-large', { name, max: maxBytes }));
  const data = entryData(archive, entry);
  const chunks: Buffer[] = [];
  let length = 0;
  const collect = (chunk: Buffer): void => {
    length += chunk.length;
    if (length > maxBytes || length > entry.size)
      throw new BundleRefused(
        bundleError('bundle-errors.file-unpacks-more', { name, max: Math.min(maxBytes, entry.size) }),
      );
    chunks.push(chunk);
  };
  if (entry.method === 0) collect(data);
  else if (entry.method === 8) {
    await inflateInto(data, collect, () => bundleError('bundle-errors.file-damaged', { name }));
  } else throw new BundleRefused(bundleError('bundle-errors.file-method', { name, method: entry.method }));
  const bytes = Buffer.concat(chunks);
  if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0)
    throw new BundleRefused(bundleError('bundle-errors.file-checksum', { name }));
  return bytes;
}
