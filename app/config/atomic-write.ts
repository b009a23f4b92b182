import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files';

/**
 * Write a file so that a crash at any moment leaves either the old or the new
 * content: write a sibling temp file, fsync it, rename over the target, then
 * fsync the directory so the rename itself is durable. The file gets `mode`
 * exactly (0600 unless told otherwise), whatever the umask; directories it
 * creates are 0700.
 */
export async function atomicWriteFile(
  filePath: string,
  data: string | Uint8Array,
  mode = PRIVATE_FILE_MODE,
): Promise<void> {
  const dir = dirname(filePath);
  await makePrivateDir(dir);
  const temp = join(dir, `.${basename(filePath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let handle = await open(temp, 'w', mode);
  try {
    // open's mode is filtered by the umask; the file must not depend on it.
    if (process.platform !== 'win32') await handle.chmod(mode);
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
