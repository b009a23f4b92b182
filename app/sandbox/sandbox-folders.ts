import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SandboxServerFolders } from '../../shared/domain/sandbox';
import { PRIVATE_DIR_MODE } from '../config/private-files';
import { serverDataFolder, serverOwnFolder } from '../servers/server-home';

/**
 * A server's own folders: `<configDir>/sandbox/<name>-<hash>/{data,tmp,cache}`
 * (app/servers/server-home.ts names them; `data` is also where a server
 * without a configured cwd runs, sandboxed or not).
 */
export function serverFolders(configDir: string, server: string): SandboxServerFolders {
  const base = serverOwnFolder(configDir, server);
  return { data: serverDataFolder(configDir, server), temp: join(base, 'tmp'), cache: join(base, 'cache') };
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
