import { readFile } from 'node:fs/promises';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

/**
 * Compression for browser mode's static files. The renderer's JavaScript is
 * several hundred KB; compressed, the first screen loads a third of the bytes.
 * Each file is compressed once per encoding (the built files do not change
 * while the host runs; a changed size or mtime makes a new entry) and kept in
 * memory, so a reload costs a lookup, not a compression.
 */

export type ContentEncoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this, compression saves less than the headers it adds. */
const MIN_COMPRESSIBLE_BYTES = 1024;
/** The built renderer's files are well under this; anything bigger is streamed as is. */
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

/** Text-like types compress well; images (other than SVG), fonts, audio, video and wasm are already compressed or not worth it. */
export function isCompressibleType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return type.startsWith('text/') || type === 'application/json' || type === 'image/svg+xml';
}

/**
 * The encoding to answer with for an Accept-Encoding header: Brotli when
 * accepted, then gzip; none when neither is (q=0 refuses one, `*` accepts any).
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (acceptEncoding === undefined || acceptEncoding.trim() === '') return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase() ?? '';
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const weightOf = (name: ContentEncoding): number => weights.get(name) ?? weights.get('*') ?? 0;
  const candidates = (['br', 'gzip'] as const).filter((name) => weightOf(name) > 0);
  // Highest q wins; on a tie, the order above (Brotli is smaller).
  return candidates.sort((a, b) => weightOf(b) - weightOf(a))[0];
}

export interface CompressedFile {
  encoding: ContentEncoding;
  body: Buffer;
}

export class CompressedFileCache {
  private readonly entries = new Map<string, Promise<Buffer>>();

  /**
   * The file compressed with the best encoding `acceptEncoding` allows, or
   * undefined when it should go out as is (not accepted, not compressible,
   * too small or too big, or compression would not make it smaller).
   */
  async get(
    file: { path: string; size: number; mtimeMs: number },
    contentType: string,
    acceptEncoding: string | undefined,
  ): Promise<CompressedFile | undefined> {
    if (!isCompressibleType(contentType) || file.size < MIN_COMPRESSIBLE_BYTES || file.size > MAX_CACHED_BYTES)
      return undefined;
    const encoding = negotiateEncoding(acceptEncoding);
    if (encoding === undefined) return undefined;
    const key = `${encoding}\0${file.path}\0${file.size}\0${file.mtimeMs}`;
    let pending = this.entries.get(key);
    if (pending === undefined) {
      pending = compressFile(file.path, encoding);
      this.entries.set(key, pending);
      // A failed read is not remembered: the next request tries again.
      pending.catch(() => this.entries.delete(key));
    }
    const body = await pending;
    return body.length < file.size ? { encoding, body } : undefined;
  }
}

async function compressFile(path: string, encoding: ContentEncoding): Promise<Buffer> {
  const raw = await readFile(path);
  if (encoding === 'gzip') return gzipAsync(raw, { level: 9 });
  return brotli(raw, {
    params: {
      [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      // 11 takes about a second for the main chunk; 9 is within a few percent of it in a fraction of the time.
      [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}
