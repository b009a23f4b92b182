import { open, stat } from 'node:fs/promises';

/**
 * The size of an append-only line file (JSON lines, log lines) and whether the
 * next append must start with a newline first. A process killed in the middle
 * of an append leaves a torn last line; without that newline the next entry
 * would be glued onto it and be lost along with it.
 */
export async function lineFileTail(path: string): Promise<{ size: number; needsNewline: boolean }> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { size: 0, needsNewline: false };
    throw error;
  }
  if (size === 0) return { size, needsNewline: false };
  const handle = await open(path, 'r');
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { size, needsNewline: last[0] !== 0x0a };
  } finally {
    await handle.close();
  }
}
