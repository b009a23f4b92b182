import { BundleRefused } from './bundle-refused';
import { bundleError } from '../../shared/domain/bundle-errors';

/**
 * A zip archive's table of contents, read from its central directory. Berth
 * reads it itself (with node:zlib to inflate) because an installer must see
 * what generic unzip helpers hide or get wrong: each entry's Unix file type
 * (a symlink is refused, not written as a file or followed), its declared
 * sizes (checked before and while writing), encryption and ZIP64 markers.
 */
export interface ZipEntry {
  /** As stored, `\` read as `/` (Windows tools write either; both separate folders on Windows). */
  name: string;
  /** 0 stored, 8 deflated; anything else is refused at extraction. */
  method: number;
  encrypted: boolean;
  compressedSize: number;
  /** What the header says it unpacks to: checked against the limits first and against what really comes out. */
  size: number;
  crc32: number;
  /** Unix mode bits when the archive was made on Unix (type and permissions), else undefined. */
  unixMode: number | undefined;
  directory: boolean;
  /** Offset of the entry's local header. */
  localOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const UNIX = 3;

function findEndOfDirectory(archive: Buffer): number {
  const earliest = Math.max(0, archive.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = archive.length - EOCD_SIZE; at >= earliest; at -= 1) {
    if (archive.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw new BundleRefused(bundleError('bundle-errors.not-zip', {}));
}

function decodeName(bytes: Buffer, utf8: boolean): string {
  // Without the UTF-8 flag names are CP437; ASCII reads the same in both, and anything else is shown as latin1.
  return utf8 ? bytes.toString('utf8') : bytes.toString('latin1');
}

/** Every entry of the archive, in central directory order. Throws BundleRefused for anything that is not a plain single-disk zip. */
export function readZipDirectory(archive: Buffer): ZipEntry[] {
  if (archive.length < EOCD_SIZE) throw new BundleRefused(bundleError('bundle-errors.too-short', {}));
  const end = findEndOfDirectory(archive);
  const disk = archive.readUInt16LE(end + 4);
  const directoryDisk = archive.readUInt16LE(end + 6);
  const entriesHere = archive.readUInt16LE(end + 8);
  const count = archive.readUInt16LE(end + 10);
  const directorySize = archive.readUInt32LE(end + 12);
  const directoryOffset = archive.readUInt32LE(end + 16);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    throw new BundleRefused(bundleError('bundle-errors.zip64-archive', {}));
  }
  if (disk !== 0 || directoryDisk !== 0 || entriesHere !== count)
    throw new BundleRefused(bundleError('bundle-errors.split', {}));
  if (directoryOffset + directorySize > end)
    throw new BundleRefused(bundleError('bundle-errors.directory-past-end', {}));
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > end || archive.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw new BundleRefused(bundleError('bundle-errors.directory-entry-unreadable', { index: index + 1 }));
    const madeBy = archive.readUInt16LE(at + 4);
    const flags = archive.readUInt16LE(at + 8);
    const method = archive.readUInt16LE(at + 10);
    const crc32 = archive.readUInt32LE(at + 16);
    const compressedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const external = archive.readUInt32LE(at + 38);
    const localOffset = archive.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end)
      throw new BundleRefused(bundleError('bundle-errors.directory-name-past-end', { index: index + 1 }));
    const name = decodeName(archive.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) !== 0).replaceAll(
      '\\',
      '/',
    );
    if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
      throw new BundleRefused(bundleError('bundle-errors.zip64-entry', { name }));
    }
    const unixMode = madeBy >> 8 === UNIX ? external >>> 16 : undefined;
    const msDosDirectory = (external & 0x10) !== 0;
    const directory =
      name.endsWith('/') ||
      (unixMode !== undefined && (unixMode & 0o170000) === 0o040000) ||
      (unixMode === undefined && msDosDirectory);
    entries.push({
      name,
      method,
      encrypted: (flags & 1) !== 0,
      compressedSize,
      size,
      crc32,
      unixMode,
      directory,
      localOffset,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where an entry's compressed bytes are: after its local header, whose name and extra field may differ in length from the directory's. */
export function entryData(archive: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > archive.length || archive.readUInt32LE(at) !== LOCAL_SIGNATURE)
    throw new BundleRefused(bundleError('bundle-errors.data-not-found', { name: entry.name }));
  const start = at + 30 + archive.readUInt16LE(at + 26) + archive.readUInt16LE(at + 28);
  if (start + entry.compressedSize > archive.length)
    throw new BundleRefused(bundleError('bundle-errors.data-past-end', { name: entry.name }));
  return archive.subarray(start, start + entry.compressedSize);
}
