import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/**
 * Write a file so that a crash at any moment leaves either the old or the new
 * content: write a sibling temp file, fsync it, rename over the target, then
 * fsync the directory so the rename itself is durable.
 */
export async function atomicWriteFile(filePath: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = dirname(filePath);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(filePath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle = await open(temp, 'w', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // Directory fsync is not supported on Windows; the rename is still atomic there.
  if (process.platform !== 'win32') {
    handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
