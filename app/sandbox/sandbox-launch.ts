import type { SandboxPolicy, SandboxServerFolders } from '../../shared/domain/sandbox';
import type { ServerLaunch } from '../servers/server-launch';
import type { SandboxRuntime } from './sandbox-runtime';

/** POSIX single quotes: the only quoting with no special character inside. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Names of inherited variables that carry credentials (cloud keys, tokens,
 * passwords) or reach agents holding them (ssh-agent, gpg-agent, the
 * session bus).
 */
const CREDENTIAL_ENV = /TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|CREDENTIAL|PRIVATE_?KEY|^AWS_|^AZURE_|^GOOGLE_APPLICATION|^GH_|^GITHUB_|^SSH_AUTH_SOCK$|^SSH_AGENT_PID$|^GPG_AGENT_INFO$|^DBUS_SESSION_BUS_ADDRESS$|^KRB5CCNAME$/i;

/**
 * The environment a sandboxed server inherits from Berth: without the
 * person's credentials, which the sandbox keeps out of reach on disk too.
 * What the server's own config sets is laid over this and stays.
 */
export function sandboxedBaseEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !CREDENTIAL_ENV.test(name)));
}

/** A sandboxed launch, and what ends its run. */
export interface SandboxedLaunch {
  launch: ServerLaunch;
  commandId: string;
  release(): void;
}

/**
 * The launch of one sandboxed start: the runtime's `bash -c 'bwrap … '`
 * (Linux) or `sandbox-exec …` (macOS) around the server's command.
 *
 * - `SHLVL=1`: without it the wrapping `bash -c` on a pipe stdin read
 *   ~/.bashrc and the start hung until its timeout.
 * - `TMPDIR` is set inside the sandbox (the runtime sets its own, which may
 *   not exist) to the server's temp folder; caches (npm, uv, XDG) go to its
 *   cache folder, as HOME is read-only.
 * - `exec` keeps the server the sandbox's direct child: stdin EOF reaches it.
 * - Credentials in Berth's own environment are not inherited (the server's
 *   config may still set any variable it needs).
 * - The person sees the server's own command in the log, never the wrapper
 *   (it carries the proxy's per-run credentials).
 */
export async function sandboxedLaunch(runtime: SandboxRuntime, launch: ServerLaunch, policy: SandboxPolicy, folders: SandboxServerFolders): Promise<SandboxedLaunch> {
  const { config } = launch;
  if (config.command === undefined) throw new Error('only a local (stdio) server runs in the sandbox');
  const line = `export TMPDIR=${shellQuote(folders.temp)}; exec ${[config.command, ...config.args].map(shellQuote).join(' ')}`;
  const wrapped = await runtime.wrap(line, policy, config.cwd);
  const env: Record<string, string> = {
    ...config.env,
    ...wrapped.env,
    SHLVL: '1',
    XDG_CACHE_HOME: folders.cache,
    npm_config_cache: `${folders.cache}/npm`,
    UV_CACHE_DIR: `${folders.cache}/uv`,
    PIP_CACHE_DIR: `${folders.cache}/pip`,
    // Node 22.21+/24 honour HTTP(S)_PROXY in fetch with this; Node 20's fetch ignores the proxy (no network then).
    NODE_USE_ENV_PROXY: '1',
  };
  return {
    launch: {
      config: { ...config, command: wrapped.command, args: wrapped.args, env },
      env: sandboxedBaseEnv(launch.env),
      explain: launch.explain,
      shownCommand: `${[config.command, ...config.args].join(' ')} (in the sandbox)`,
    },
    commandId: wrapped.commandId,
    release: wrapped.release,
  };
}
