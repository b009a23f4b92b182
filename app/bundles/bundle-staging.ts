import { randomBytes } from 'node:crypto';
import { bundleError } from '../../shared/domain/bundle-errors';
import { appendFile, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_BUNDLE_FILE_BYTES } from '../../shared/contract/bundles';
import { HostError } from '../../shared/result';
import { errorMessage } from '../../shared/error-message';
import { makePrivateDir } from '../config/private-files';
import { BundleRefused } from './bundle-refused';

/** Uploads and staged bundles kept at once; the oldest goes first. */
const MAX_KEPT = 8;

function newId(): string {
  return randomBytes(16).toString('hex');
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * The bundles folder's working areas: `.uploads/` (bytes a window sends in
 * chunks, browser mode has no file path) and `.staging/<id>/` (a copy of the
 * archive and what it unpacked to, while the person looks at it). Both are
 * Berth's alone and emptied at start: no stage outlives the host.
 */
export class BundleStaging {
  private readonly uploads = new Map<string, { path: string; size: number }>();

  constructor(
    private readonly bundlesDir: string,
    private readonly maxFileBytes: number = MAX_BUNDLE_FILE_BYTES,
  ) {}

  get uploadsDir(): string {
    return join(this.bundlesDir, '.uploads');
  }

  get stagingDir(): string {
    return join(this.bundlesDir, '.staging');
  }

  /** Where a retired folder waits for deletion (kept on the same disk, so moving it there is one rename). */
  get trashDir(): string {
    return join(this.bundlesDir, '.trash');
  }

  async reset(): Promise<void> {
    for (const dir of [this.uploadsDir, this.stagingDir, this.trashDir])
      await rm(dir, { recursive: true, force: true });
    await makePrivateDir(this.bundlesDir);
  }

  /** Appends one chunk (the first one starts an upload); refuses past the size limit. */
  async upload(uploadId: string | undefined, chunk: Buffer): Promise<{ uploadId: string; size: number }> {
    let upload = uploadId === undefined ? undefined : this.uploads.get(uploadId);
    if (uploadId !== undefined && upload === undefined)
      throw HostError.coded('NOT_FOUND', bundleError('bundle-errors.upload-gone', {}), 'uploadId');
    if (upload === undefined) {
      await makePrivateDir(this.uploadsDir);
      const id = newId();
      upload = { path: join(this.uploadsDir, `${id}.mcpb`), size: 0 };
      this.uploads.set(id, upload);
      uploadId = id;
      await this.dropOldest(this.uploads, (old) => rm(old.path, { force: true }));
    }
    if (upload.size + chunk.length > this.maxFileBytes) {
      this.uploads.delete(uploadId!);
      await rm(upload.path, { force: true });
      throw new BundleRefused(bundleError('bundle-errors.too-large', { limit: mib(this.maxFileBytes) }));
    }
    await appendFile(upload.path, chunk, { mode: 0o600 });
    upload.size += chunk.length;
    return { uploadId: uploadId!, size: upload.size };
  }

  /** A new stage folder holding the archive's bytes (from a path or an upload, which is used up), and those bytes. */
  async stage(
    source: { kind: 'path'; path: string } | { kind: 'upload'; uploadId: string },
  ): Promise<{ id: string; dir: string; archivePath: string; bytes: Buffer }> {
    const id = newId();
    const dir = join(this.stagingDir, id);
    await makePrivateDir(dir);
    const archivePath = join(dir, 'bundle.mcpb');
    try {
      if (source.kind === 'upload') {
        const upload = this.uploads.get(source.uploadId);
        if (upload === undefined)
          throw HostError.coded('NOT_FOUND', bundleError('bundle-errors.upload-gone', {}), 'source.uploadId');
        this.uploads.delete(source.uploadId);
        await rename(upload.path, archivePath);
      } else {
        let size: number;
        try {
          const info = await stat(source.path);
          if (!info.isFile()) throw new BundleRefused(bundleError('bundle-errors.not-a-file', { path: source.path }));
          size = info.size;
        } catch (error) {
          if (error instanceof HostError) throw error;
          throw HostError.coded(
            'NOT_FOUND',
            bundleError('bundle-errors.cannot-open', { path: source.path, detail: errorMessage(error) }),
            'source.path',
          );
        }
        if (size > this.maxFileBytes)
          throw new BundleRefused(bundleError('bundle-errors.too-large', { limit: mib(this.maxFileBytes) }));
        // A copy: what is checked, shown and installed is exactly these bytes, whatever happens to the file later.
        const bytes = await readFile(source.path);
        if (bytes.length > this.maxFileBytes)
          throw new BundleRefused(bundleError('bundle-errors.too-large', { limit: mib(this.maxFileBytes) }));
        await appendFile(archivePath, bytes, { mode: 0o600 });
        return { id, dir, archivePath, bytes };
      }
      return { id, dir, archivePath, bytes: await readFile(archivePath) };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Keeps at most MAX_KEPT entries, dropping the oldest (Maps keep insertion order). */
  async dropOldest<T>(entries: Map<string, T>, drop: (entry: T) => Promise<unknown>): Promise<void> {
    while (entries.size > MAX_KEPT) {
      const [oldestId, oldest] = entries.entries().next().value as [string, T];
      entries.delete(oldestId);
      await drop(oldest);
    }
  }

  /** Moves a folder out of the way in one rename, to delete it later; returns where it went. */
  async retire(path: string): Promise<string> {
    await makePrivateDir(this.trashDir);
    const aside = join(this.trashDir, newId());
    await rename(path, aside);
    return aside;
  }
}
