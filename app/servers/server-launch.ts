import type { ServerConfig } from '../../shared/domain/server';
import { access, constants } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';
import type { LaunchEnv } from './login-env';
import type { ServerStartError } from '../../shared/domain/server-start-error';
import { withPathSource } from './spawn-errors';

/** What one start of a server is spawned with. Host-side only: `config` may hold resolved secrets. */
export interface ServerLaunch {
  /** The config to spawn: secret references replaced by their values. */
  config: ServerConfig;
  /** The environment the server's `env` is laid over. */
  env: NodeJS.ProcessEnv;
  /** Adds what the person needs to act on a start failure (where the searched PATH came from). */
  explain(error: ServerStartError): ServerStartError;
  /** What the log shows as the spawned command when `config` runs something around it (the sandbox's wrapper). */
  shownCommand?: string;
  /** Set when `config` runs a wrapper that applies the server's environment and command itself (the sandbox). */
  wrapper?: LaunchWrapper;
}

/**
 * What a wrapping launch spawns with instead of `env` + `config.env` (which
 * stays in `config`, for the log's redaction of its secrets).
 */
export interface LaunchWrapper {
  /** The wrapper's whole environment. */
  env: Record<string, string>;
  /** Written to the wrapper's fd 3 right after the spawn, then closed: the server's environment and command, off any command line. */
  input: Buffer;
}

/** Builds the launch of one start; rejects with a ServerStartError when the server must not be spawned. */
export type PrepareLaunch = (name: string, config: ServerConfig) => Promise<ServerLaunch>;

/** A launch with the given environment and the config as it is (tests, hosts without a login shell). */
export function plainLaunch(config: ServerConfig, env: NodeJS.ProcessEnv): ServerLaunch {
  return { config, env, explain: (error) => error };
}

/** What {@linkcode createLaunchPreparer} composes. */
export interface LaunchPreparerOptions {
  /** The login-shell environment, resolved once per host run. */
  launchEnv: () => Promise<LaunchEnv>;
  /**
   * Optional: the login-shell environment if it is already known, and
   * Berth's own. With both, a start does not wait for a slow shell (an
   * interactive rc file can take seconds) when its command is found anyway.
   */
  settledLaunchEnv?: () => LaunchEnv | undefined;
  baseLaunchEnv?: (pathSource: string) => LaunchEnv;
  /** Replaces secret references with their values; rejects with a ServerStartError naming a missing one. */
  resolveSecrets?: (name: string, config: ServerConfig) => Promise<ServerConfig>;
}

/** The host's launch: login-shell PATH first, then secrets, then a start failure explained with both in mind. */
export function createLaunchPreparer(options: LaunchPreparerOptions): PrepareLaunch {
  return async (name, config) => {
    const launch = await launchEnvFor(config, options);
    const resolved = options.resolveSecrets === undefined ? config : await options.resolveSecrets(name, config);
    const pathSource = Object.prototype.hasOwnProperty.call(config.env, 'PATH')
      ? "the server's config sets PATH itself"
      : launch.pathSource;
    return {
      config: resolved,
      env: launch.env,
      explain: (error) => (config.command === undefined ? error : withPathSource(error, config.command, pathSource)),
    };
  };
}

/**
 * Which environment a start gets. The login shell's answer once it is in;
 * before that, a remote server (no process) or a command that Berth's own
 * PATH already finds starts at once with Berth's environment, and only a
 * command that is not found waits for the shell — the case the shell is
 * asked for. (A command found on both PATHs may then be the GUI PATH's copy
 * for that one early start; the next start uses the merged PATH.)
 */
async function launchEnvFor(config: ServerConfig, options: LaunchPreparerOptions): Promise<LaunchEnv> {
  const settled = options.settledLaunchEnv?.();
  if (settled !== undefined || options.baseLaunchEnv === undefined) return settled ?? options.launchEnv();
  if (config.command === undefined) return options.baseLaunchEnv("Berth's own PATH");
  const base = options.baseLaunchEnv(
    "Berth's own PATH (the login shell had not answered yet when this server started)",
  );
  const searchPath = config.env.PATH ?? base.env.PATH;
  if (await commandFound(config.command, searchPath, config.cwd)) return base;
  return options.launchEnv();
}

/** Whether spawning `command` would find it: a path that exists, or a name in one of the PATH folders. */
export async function commandFound(command: string, searchPath: string | undefined, cwd?: string): Promise<boolean> {
  return (await resolveExecutable(command, searchPath, cwd)) !== undefined;
}

/**
 * The absolute file spawning `command` would run: a path (relative ones
 * against `cwd`), or the first PATH folder holding it. Relative PATH entries
 * count from `cwd` too, as the child searches them after changing into it.
 * Undefined when nothing executable is found.
 */
export async function resolveExecutable(
  command: string,
  searchPath: string | undefined,
  cwd?: string,
): Promise<string | undefined> {
  const base = cwd ?? process.cwd();
  const candidates = /[\\/]/.test(command)
    ? [resolve(base, command)]
    : (searchPath ?? '')
        .split(delimiter)
        .filter((folder) => folder !== '')
        .flatMap((folder) =>
          process.platform === 'win32'
            ? ['', '.exe', '.cmd', '.bat'].map((ext) => resolve(base, folder, command + ext))
            : [resolve(base, folder, command)],
        );
  for (const candidate of candidates) {
    try {
      await access(candidate, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
      return candidate;
    } catch {
      // Not here: try the next folder.
    }
  }
  return undefined;
}
