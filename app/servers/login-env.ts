import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { delimiter as pathDelimiter } from 'node:path';
import { formatSeconds } from '../format-seconds';
import { signalGroup } from './process-tree';

/** How long the login shell may take to print its PATH before Berth gives up on it. */
export const LOGIN_SHELL_TIMEOUT_MS = 5_000;

/** How long output may still arrive after the shell exited while something it started holds its pipes open. */
const EXIT_GRACE_MS = 250;

/** More than any real PATH plus rc noise; a shell printing without end is cut off here. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** What reading the login shell's PATH gave. */
export type LoginPathResult = { ok: true; shell: string; path: string } | { ok: false; shell?: string; reason: string };

/** Options for {@linkcode readLoginShellPath}. */
export interface ReadLoginShellOptions {
  /** The person's shell ($SHELL); undefined means there is none to ask. */
  shell: string | undefined;
  /** The environment the shell starts with (the host's own). */
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Aborting (the host shuts down) kills the shell and its children at once. */
  signal?: AbortSignal;
}

function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const line = lines.at(-1) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Asks the person's login shell for its PATH: `$SHELL -ilc` runs the same
 * startup files a terminal does (nvm, Homebrew, pyenv, ~/.local/bin…). Only
 * PATH is read, printed between random markers, so whatever the rc files
 * print themselves (greetings, warnings) is ignored. Printing `$PATH` rather
 * than `env -0` also works in fish (3+, which joins PATH with colons) and
 * with the BSD `env` of older macOS, and no multi-line value can be mistaken
 * for another variable.
 * Never rejects: every failure is a reason in words.
 */
export function readLoginShellPath(options: ReadLoginShellOptions): Promise<LoginPathResult> {
  const { shell, env, signal } = options;
  if (signal?.aborted) return Promise.resolve({ ok: false, shell, reason: 'Berth is shutting down' });
  if (shell === undefined || shell.trim() === '') return Promise.resolve({ ok: false, reason: '$SHELL is not set' });
  const timeoutMs = options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS;
  const marker = `__BERTH_PATH_${randomBytes(8).toString('hex')}__`;
  const script = `printf '%s' '${marker}'; printf '%s' "$PATH"; printf '%s' '${marker}'`;
  return new Promise((resolve) => {
    let settled = false;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let grace: NodeJS.Timeout | undefined;
    const finish = (result: LoginPathResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const failed = (reason: string): void => finish({ ok: false, shell, reason });
    // Own process group, so a timeout also ends whatever the rc files started.
    const child = spawn(shell, ['-ilc', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      killTree(child.pid);
      failed(`${shell} -ilc did not finish within ${formatSeconds(timeoutMs)}; something in its startup files waits`);
    }, timeoutMs);
    const onAbort = (): void => {
      killTree(child.pid);
      failed('Berth is shutting down');
    };
    signal?.addEventListener('abort', onAbort);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes >= MAX_OUTPUT_BYTES) return;
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    child.once('error', (error: NodeJS.ErrnoException) => failed(`could not run ${shell}: ${error.message}`));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const conclude = (): void => {
      if (exit === undefined || settled) return;
      // A daemon started by the rc files (ssh-agent…) may keep the pipes open: what the shell wrote is all read by now.
      child.stdout.destroy();
      child.stderr.destroy();
      if (exit.code !== 0) {
        const said = lastLine(stderr);
        failed(
          `${shell} -ilc exited with ${exit.code === null ? `signal ${exit.signal ?? 'unknown'}` : `code ${exit.code}`}${said === '' ? '' : ` (${said})`}`,
        );
        return;
      }
      const text = Buffer.concat(stdout).toString('utf8');
      const start = text.indexOf(marker);
      const end = start < 0 ? -1 : text.indexOf(marker, start + marker.length);
      const path = end < 0 ? undefined : text.slice(start + marker.length, end).trim();
      if (path === undefined) failed(`${shell} -ilc printed no PATH`);
      else if (path === '') failed(`${shell} -ilc printed an empty PATH`);
      else finish({ ok: true, shell, path });
    };
    child.once('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      grace = setTimeout(conclude, EXIT_GRACE_MS);
    });
    child.once('close', (code, exitSignal) => {
      exit ??= { code, signal: exitSignal };
      conclude();
    });
  });
}

/** The shell and whatever its rc files started (its own process group); never asked on Windows. */
function killTree(pid: number | undefined): void {
  if (pid !== undefined) signalGroup(pid, 'SIGKILL');
}

/** PATH entries of `first`, then those of `second` not already listed; empty entries dropped. */
export function mergePathLists(
  first: string | undefined,
  second: string | undefined,
  delimiter: string = pathDelimiter,
): string {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const list of [first, second]) {
    for (const entry of (list ?? '').split(delimiter)) {
      if (entry === '' || seen.has(entry)) continue;
      seen.add(entry);
      merged.push(entry);
    }
  }
  return merged.join(delimiter);
}

/** The environment servers are spawned with, and how its PATH came to be (for "command not found"). */
export interface LaunchEnv {
  env: NodeJS.ProcessEnv;
  /** One clause for error messages: where the PATH that was searched comes from. */
  pathSource: string;
}

/** Options for {@linkcode LoginShellEnvironment}. */
export interface LoginShellEnvironmentOptions {
  /** The host's environment; its SHELL is the shell asked. */
  baseEnv: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
  /** Said once, when the login shell could not be read. */
  warn: (text: string) => void;
}

/**
 * A GUI launch on macOS or Linux does not inherit the login shell's PATH, so
 * `npx`, `uvx` or an nvm-installed `node` are "not found" although they work
 * in a terminal. The first server start asks the login shell once per host
 * run; every spawn then gets its PATH entries first, then the host's. From a
 * terminal the two mostly agree and the merge changes nothing. Windows GUI
 * apps get the user's full PATH already, so no shell is asked there.
 */
export class LoginShellEnvironment {
  private resolving: Promise<LaunchEnv> | undefined;
  private done: LaunchEnv | undefined;
  private readonly abort = new AbortController();

  constructor(private readonly options: LoginShellEnvironmentOptions) {}

  /** Resolved once; never rejects (a failure falls back to the host's environment, with one warning). */
  get(): Promise<LaunchEnv> {
    this.resolving ??= this.resolve().then((env) => (this.done = env));
    return this.resolving;
  }

  /** The result if the shell has answered already (or was given up on); undefined while it is still being asked. */
  settled(): LaunchEnv | undefined {
    return this.done;
  }

  /** Berth's own environment, for a start that need not wait for the shell. */
  base(pathSource: string): LaunchEnv {
    return { env: this.options.baseEnv, pathSource };
  }

  /** The host shuts down: a shell still running is killed with its children. */
  close(): void {
    this.abort.abort();
  }

  private async resolve(): Promise<LaunchEnv> {
    const { baseEnv } = this.options;
    if ((this.options.platform ?? process.platform) === 'win32') {
      return { env: baseEnv, pathSource: "Berth's own PATH (on Windows it is the user's full PATH)" };
    }
    const result = await readLoginShellPath({
      shell: baseEnv.SHELL,
      env: baseEnv,
      signal: this.abort.signal,
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
    });
    if (!result.ok) {
      // At shutdown nothing is started any more: no warning about a shell Berth itself stopped.
      if (!this.abort.signal.aborted)
        this.options.warn(
          `could not read the login shell's PATH (${result.reason}); servers are started with Berth's own PATH`,
        );
      return {
        env: baseEnv,
        pathSource: `the login shell's PATH could not be read (${result.reason}), so only Berth's own PATH was searched`,
      };
    }
    return {
      env: { ...baseEnv, PATH: mergePathLists(result.path, baseEnv.PATH) },
      pathSource: `it includes the login shell's PATH (${result.shell} -il)`,
    };
  }
}
