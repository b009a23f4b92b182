import { createHash } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SandboxServerFolders } from '../../shared/domain/sandbox';
import { PRIVATE_DIR_MODE } from '../config/private-files';

/**
 * A server's own folders: `<configDir>/sandbox/<name>-<hash>/{data,tmp,cache}`.
 * The name is reduced to safe characters (a name may hold anything) and the
 * hash keeps two names that reduce alike apart.
 */
export function serverFolders(configDir: string, server: string): SandboxServerFolders {
  const safe = server
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 60);
  const hash = createHash('sha256').update(server).digest('hex').slice(0, 10);
  const base = join(configDir, 'sandbox', `${safe}-${hash}`);
  return { data: join(base, 'data'), temp: join(base, 'tmp'), cache: join(base, 'cache') };
}

/** Create them (private to the person): a writable path that does not exist yet would stay read-only in the sandbox. */
export async function ensureServerFolders(folders: SandboxServerFolders): Promise<void> {
  await mkdir(dirname(dirname(folders.data)), { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const folder of [folders.data, folders.temp, folders.cache])
    await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** The server was removed: its folders go with it. */
export async function removeServerFolders(folders: SandboxServerFolders): Promise<void> {
  await rm(dirname(folders.data), { recursive: true, force: true });
}

/** The server was renamed: its folders follow (none yet: nothing to move). */
export async function moveServerFolders(from: SandboxServerFolders, to: SandboxServerFolders): Promise<void> {
  try {
    await rename(dirname(from.data), dirname(to.data));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
