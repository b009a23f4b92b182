import type { SandboxPolicy, SandboxServerFolders } from '../../shared/domain/sandbox';
import type { ServerLaunch } from '../servers/server-launch';
import type { SandboxRuntime } from './sandbox-runtime';
import { INNER_LINE, insideEnv, launchRecords, runtimeSetNames, wrapperEnv, wrapperPath } from './sandbox-env';

/**
 * Names of inherited variables that carry credentials (cloud keys, tokens,
 * passwords) or reach agents holding them (ssh-agent, gpg-agent, the
 * session bus).
 */
const CREDENTIAL_ENV =
  /TOKEN|SECRET|PASSW|API_?KEY|ACCESS_?KEY|CREDENTIAL|PRIVATE_?KEY|^AWS_|^AZURE_|^GOOGLE_APPLICATION|^GH_|^GITHUB_|^SSH_AUTH_SOCK$|^SSH_AGENT_PID$|^GPG_AGENT_INFO$|^DBUS_SESSION_BUS_ADDRESS$|^KRB5CCNAME$/i;

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
  /** Variables left out of the server's environment, in words for its log (names only, never values). */
  leftOut: string[];
}

/**
 * The launch of one sandboxed start: the runtime's `bash -c 'bwrap … '`
 * (Linux) or `sandbox-exec …` (macOS) around a fixed line that receives the
 * server's environment and command on fd 3 (sandbox-env.ts says why).
 *
 * - The server's environment is exactly: Berth's inherited one without
 *   credentials, its config's env, Berth's fixed variables below, and the
 *   runtime's proxy settings. The runtime's returned `env` (Berth's whole
 *   environment) is not used.
 * - `TMPDIR` is the server's temp folder (the runtime sets its own, which
 *   may not exist); caches (npm, uv, XDG) go to its cache folder, as HOME is
 *   read-only.
 * - `exec` keeps the server the sandbox's direct child: stdin EOF reaches it.
 * - The person sees the server's own command in the log, never the wrapper
 *   (it carries the proxy's per-run credentials).
 */
export async function sandboxedLaunch(
  runtime: SandboxRuntime,
  launch: ServerLaunch,
  policy: SandboxPolicy,
  folders: SandboxServerFolders,
  berthPath: string | undefined = process.env.PATH,
): Promise<SandboxedLaunch> {
  const { config } = launch;
  if (config.command === undefined) throw new Error('only a local (stdio) server runs in the sandbox');
  const wrapped = await runtime.wrap(INNER_LINE, policy, config.cwd);
  const fixed = {
    TMPDIR: folders.temp,
    SHLVL: '1',
    XDG_CACHE_HOME: folders.cache,
    npm_config_cache: `${folders.cache}/npm`,
    UV_CACHE_DIR: `${folders.cache}/uv`,
    PIP_CACHE_DIR: `${folders.cache}/pip`,
    // Node 22.21+/24 honour HTTP(S)_PROXY in fetch with this; Node 20's fetch ignores the proxy (no network then).
    NODE_USE_ENV_PROXY: '1',
  };
  const inside = insideEnv({
    inherited: sandboxedBaseEnv(launch.env),
    config: config.env,
    fixed,
    runtimeNames: runtimeSetNames([wrapped.command, ...wrapped.args]),
  });
  const outside = wrapperEnv(launch.env, await wrapperPath(berthPath));
  return {
    launch: {
      config: { ...config, command: wrapped.command, args: wrapped.args },
      env: outside,
      wrapper: { env: outside, input: launchRecords(inside.env, [config.command, ...config.args]) },
      explain: launch.explain,
      shownCommand: `${[config.command, ...config.args].join(' ')} (in the sandbox)`,
    },
    commandId: wrapped.commandId,
    release: wrapped.release,
    leftOut: inside.leftOut.map(
      ({ name, fromConfig, reason }) =>
        `${fromConfig ? 'its config sets' : "Berth's environment has"} the variable ${name}, which is left out of its environment in the sandbox: ${reason}`,
    ),
  };
}
