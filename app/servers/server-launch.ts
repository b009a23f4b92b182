import type { ServerConfig } from '../../shared/domain/server';
import type { LaunchEnv } from './login-env';
import { withPathSource, type ServerStartError } from './spawn-errors';

/** What one start of a server is spawned with. Host-side only: `config` may hold resolved secrets. */
export interface ServerLaunch {
  /** The config to spawn: secret references replaced by their values. */
  config: ServerConfig;
  /** The environment the server's `env` is laid over. */
  env: NodeJS.ProcessEnv;
  /** Adds what the person needs to act on a start failure (where the searched PATH came from). */
  explain(error: ServerStartError): ServerStartError;
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
  /** Replaces secret references with their values; rejects with a ServerStartError naming a missing one. */
  resolveSecrets?: (name: string, config: ServerConfig) => Promise<ServerConfig>;
}

/** The host's launch: login-shell PATH first, then secrets, then a start failure explained with both in mind. */
export function createLaunchPreparer(options: LaunchPreparerOptions): PrepareLaunch {
  return async (name, config) => {
    const launch = await options.launchEnv();
    const resolved = options.resolveSecrets === undefined ? config : await options.resolveSecrets(name, config);
    const pathSource = Object.prototype.hasOwnProperty.call(config.env, 'PATH') ? "the server's config sets PATH itself" : launch.pathSource;
    return { config: resolved, env: launch.env, explain: (error) => (config.command === undefined ? error : withPathSource(error, config.command, pathSource)) };
  };
}
