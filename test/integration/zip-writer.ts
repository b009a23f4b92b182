import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-made archive; the fields a hostile archive lies with are all settable. */
export interface RawEntry {
  name: string;
  data?: Buffer | string;
  /** Unix mode (type and permissions), written as the entry's external attributes; default a 0644 file. */
  mode?: number;
  deflate?: boolean;
  /** The uncompressed size the headers claim (default: the real one). */
  declaredSize?: number;
}

/**
 * Writes a zip archive by hand, so tests can build what no well-behaved tool
 * writes: `../` names, symlink entries, sizes that lie. Single disk, no ZIP64.
 */
export function writeZip(entries: readonly RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '');
    const body = entry.deflate === true ? deflateRawSync(raw) : raw;
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    const checksum = crc32(raw);
    const method = entry.deflate === true ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A manifest the MCPB schema accepts, for hand-made archives. */
export function validManifest(changes: Record<string, unknown> = {}): string {
  return JSON.stringify({
    manifest_version: '0.3',
    name: 'hand-made',
    version: '1.0.0',
    description: 'A hand-made test bundle',
    author: { name: 'Berth tests' },
    server: {
      type: 'node',
      entry_point: 'server/index.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'] },
    },
    ...changes,
  });
}
