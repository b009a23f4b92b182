import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxRuntimeConfig, SandboxViolationEvent } from '@anthropic-ai/sandbox-runtime';
import type { SandboxPolicy, SandboxSupport } from '../../shared/domain/sandbox';

/**
 * The one `SandboxManager` of this process (the package keeps a single
 * global one: its proxies and its violation store). Hosts share it through
 * {@linkcode acquireSandboxRuntime}; the last release resets it.
 *
 * The manager's own config allows NO domain at all. Each sandboxed server is
 * wrapped with its filesystem policy as a per-command config, and its domains
 * are registered under a random 128-bit id that only its proxy settings carry
 * (`registerCommandNetworkLists`, checked to be enforced per id: see
 * test/integration/sandbox-network.test.ts). Each Linux sandbox has its own
 * PID namespace and /proc, so one server cannot read another's id from its
 * environment.
 */

/**
 * The seccomp helper in the packaged app: beside the main bundle
 * (scripts/build-node.mjs), unpacked from app.asar. Elsewhere the runtime
 * finds its own in node_modules.
 */
function packagedSeccompHelper(): string | undefined {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const beside = join(dirname(fileURLToPath(import.meta.url)), 'vendor', 'seccomp', arch, 'apply-seccomp').replace(
    /\.asar([\\/])/,
    '.asar.unpacked$1',
  );
  return existsSync(beside) ? beside : undefined;
}

/**
 * How deep the runtime looks for dangerous names (.git/hooks, .bashrc, …) to
 * deny for writes, on each wrap. On Linux it scans Berth's own working
 * directory (not a server's). From `/` — where a desktop launcher may start
 * Berth — its default depth walked /proc and /sys on every server start
 * until ripgrep was killed at 10 s, and could protect nothing there: the
 * only repositories it covers lie one level below the working directory,
 * and nothing directly under `/` is writable to a sandboxed server. So from
 * a filesystem root the scan stays shallow; elsewhere (the person's home, a
 * project) the runtime's default depth keeps guarding the repositories one
 * level down, which a root given to a server may hold.
 */
export function dangerousNamesSearchDepth(workingDirectory: string): number | undefined {
  return parse(workingDirectory).root === workingDirectory ? 1 : undefined;
}

/** The global config: nothing reachable, nothing writable; servers get theirs per command. */
export function baseConfig(workingDirectory = process.cwd()): SandboxRuntimeConfig {
  const seccomp = packagedSeccompHelper();
  const depth = dangerousNamesSearchDepth(workingDirectory);
  return {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ...(depth === undefined ? {} : { mandatoryDenySearchDepth: depth }),
    ...(seccomp === undefined ? {} : { seccomp: { applyPath: seccomp } }),
  };
}

let holders = 0;
let initializing: Promise<void> | undefined;

type RuntimeModule = typeof import('@anthropic-ai/sandbox-runtime');
let loading: Promise<RuntimeModule> | undefined;

/** Loaded on first use: ~150 ms that a host with no sandboxed server never pays. */
function runtimeModule(): Promise<RuntimeModule> {
  loading ??= import('@anthropic-ai/sandbox-runtime').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Whether the sandbox can run here, and if not, why and what to install. Cheap enough to ask on every call. */
export async function sandboxSupport(platform: NodeJS.Platform = process.platform): Promise<SandboxSupport> {
  if (platform === 'win32')
    return {
      available: false,
      platform,
      reason:
        "Berth's sandbox for local servers needs Linux or macOS; on Windows the sandbox runtime is still an alpha",
      warnings: [],
    };
  if (platform !== 'linux' && platform !== 'darwin')
    return { available: false, platform, reason: `the sandbox runtime does not support ${platform}`, warnings: [] };
  let check: { errors: string[]; warnings: string[] };
  try {
    check = (await runtimeModule()).SandboxManager.checkDependencies();
  } catch (error) {
    return {
      available: false,
      platform,
      reason: `the sandbox runtime could not check this machine (${error instanceof Error ? error.message : String(error)})`,
      warnings: [],
    };
  }
  // Without its seccomp helper the runtime cannot block unix sockets: a server could use ssh-agent or docker's socket.
  const seccomp = check.warnings.find((warning) => /seccomp/i.test(warning));
  if (check.errors.length === 0 && seccomp !== undefined)
    return {
      available: false,
      platform,
      reason: `the sandbox runtime's seccomp helper is missing here, so servers could reach unix sockets (ssh-agent, docker): ${seccomp}`,
      warnings: check.warnings,
    };
  if (check.errors.length === 0) return { available: true, platform, warnings: check.warnings };
  const install =
    platform === 'linux'
      ? 'Install bubblewrap, socat and ripgrep (Debian/Ubuntu: sudo apt-get install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep)'
      : 'Install ripgrep (brew install ripgrep)';
  return {
    available: false,
    platform,
    reason: `missing on this machine: ${check.errors.join('; ')}`,
    install,
    warnings: check.warnings,
  };
}

/**
 * The config one server runs under, checked with the runtime's own schema.
 * The runtime does not validate what it is given, and a config without
 * `network.allowedDomains` runs with NO network isolation at all: anything
 * that does not parse, or that lacks the network lists, is refused.
 */
export async function sandboxConfigFor(policy: SandboxPolicy): Promise<SandboxRuntimeConfig> {
  const config = {
    network: { allowedDomains: policy.allowedDomains, deniedDomains: [] },
    filesystem: {
      denyRead: policy.denyRead,
      allowRead: policy.allowRead,
      allowWrite: policy.allowWrite,
      denyWrite: policy.denyWrite,
    },
  };
  return validateSandboxConfig(config);
}

/** Parse a config as the runtime would take it; throws in words when it would drop an isolation. */
export async function validateSandboxConfig(config: unknown): Promise<SandboxRuntimeConfig> {
  const network = (config as { network?: { allowedDomains?: unknown } } | null)?.network;
  if (network === undefined || network === null || !Array.isArray(network.allowedDomains)) {
    throw new Error(
      'refusing a sandbox config without network.allowedDomains: the runtime would run the server with no network isolation',
    );
  }
  const parsed = (await runtimeModule()).SandboxRuntimeConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `refusing an invalid sandbox config (${issue === undefined ? 'unexpected shape' : `${issue.path.join('.')}: ${issue.message}`})`,
    );
  }
  if (parsed.data.network.allowedDomains.some((domain) => domain.trim() === '*'))
    throw new Error('refusing a sandbox config that allows every domain ("*")');
  return parsed.data;
}

/** One sandboxed spawn: what to run instead, and what to undo when it ended. */
export interface WrappedCommand {
  command: string;
  args: string[];
  /** Forget the network list registered for this run. */
  release(): void;
}

/** The process-wide runtime, held while a host runs (see {@linkcode acquireSandboxRuntime}). */
export interface SandboxRuntime {
  /**
   * Wrap a shell command line for one server start. `commandId` is minted
   * here: unguessable, never derived from the command.
   */
  wrap(
    shellCommand: string,
    policy: SandboxPolicy,
    cwd: string | undefined,
  ): Promise<WrappedCommand & { commandId: string }>;
  /** Network denials the proxies record, with the id of the run they came from. */
  onViolation(listener: (commandId: string | undefined, line: string) => void): () => void;
  release(): Promise<void>;
}

/** Start (once per process) or join the runtime. */
export async function acquireSandboxRuntime(): Promise<SandboxRuntime> {
  holders += 1;
  let SandboxManager: RuntimeModule['SandboxManager'];
  try {
    SandboxManager = (await runtimeModule()).SandboxManager;
    initializing ??= validateSandboxConfig(baseConfig()).then((config) => SandboxManager.initialize(config));
    await initializing;
  } catch (error) {
    holders -= 1;
    initializing = undefined;
    throw error;
  }
  let released = false;
  const seen = new WeakSet<SandboxViolationEvent>();
  return {
    async wrap(shellCommand, policy, cwd) {
      const config = await sandboxConfigFor(policy);
      const commandId = randomBytes(16).toString('base64url');
      // Registered before the spawn, removed when the run ends (release): a list that outlives its run widens nothing.
      SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: config.network.allowedDomains });
      try {
        const wrapped = await SandboxManager.wrapWithSandboxArgv(
          shellCommand,
          undefined,
          { filesystem: config.filesystem },
          undefined,
          cwd,
          { commandId, commandText: commandId },
        );
        // Its `env` (Berth's whole environment on Linux) is left out: see sandbox-env.ts for what the spawn gets.
        const [command, ...args] = wrapped.argv;
        if (command === undefined) throw new Error('the sandbox runtime returned an empty command');
        return { command, args, commandId, release: () => SandboxManager.unregisterCommandNetworkLists(commandId) };
      } catch (error) {
        SandboxManager.unregisterCommandNetworkLists(commandId);
        throw error;
      }
    },
    onViolation(listener) {
      return SandboxManager.getSandboxViolationStore().subscribe((violations) => {
        for (const violation of violations) {
          if (seen.has(violation)) continue;
          seen.add(violation);
          listener(decodeCommandId(violation.encodedCommand), violation.line);
        }
      });
    },
    async release() {
      if (released) return;
      released = true;
      holders -= 1;
      if (holders > 0) return;
      const pending = initializing;
      initializing = undefined;
      await pending?.catch(() => undefined);
      await SandboxManager.reset();
    },
  };
}

function decodeCommandId(encoded: string | undefined): string | undefined {
  if (encoded === undefined) return undefined;
  try {
    return Buffer.from(encoded, 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}
