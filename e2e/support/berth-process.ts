// Starting and stopping Berth in browser mode as a real process, without
// Playwright: the e2e fixtures (berth.ts) and the benchmarks (bench/) share it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUNDLED_ENTRY = join(ROOT, 'dist', 'app', 'browser-mode.mjs');
const SOURCE_ENTRY = join(ROOT, 'app', 'cli', 'browser-mode.ts');
const STATIC_DIR = join(ROOT, 'dist', 'renderer');
const READY_LINE = /Berth is ready at (http:\/\/\S+)/;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 25_000;

/** One running browser-mode host with its own config directory. */
export interface BerthHost {
  /** `http://127.0.0.1:PORT/#token=…` (a new one after `restart`). */
  readonly url: string;
  configDir: string;
  /** Everything the host wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, wait for a clean exit, start again on the same config dir; resolves with the exit code of the first run. */
  restart(): Promise<number | null>;
  /** SIGTERM and wait for a clean exit; idempotent. */
  stop(): Promise<number | null>;
}

export interface BerthOptions {
  /** Written to config.json before the host starts: an object (as JSON) or raw text (e.g. a broken file). */
  initialConfig: Record<string, unknown> | string | undefined;
  /**
   * Extra environment for the host. The runner's own ANTHROPIC_* variables are
   * never passed on, so no test can reach the real API by accident.
   */
  hostEnv: Record<string, string> | undefined;
  /** Written to settings.json before the host starts (providers, default model…). */
  initialSettings: Record<string, unknown> | undefined;
}

function hostEnvironment(configDir: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
  for (const key of Object.keys(env)) if (key.startsWith('ANTHROPIC_')) delete env[key];
  return { ...env, ...extra };
}

interface RunningHost {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * Starts `browser-mode --headless --port 0` in a fresh temp config dir and
 * waits for its single ready line. Uses the bundle from `npm run build` when
 * present, else the TypeScript source through tsx (the renderer must be built).
 */
export async function startBerth(options: Partial<BerthOptions> = {}): Promise<BerthHost> {
  if (!existsSync(join(STATIC_DIR, 'index.html')))
    throw new Error(`The renderer is not built (${STATIC_DIR}); run npm run build first.`);
  const configDir = await mkdtemp(join(tmpdir(), 'berth-e2e-'));
  if (options.initialConfig !== undefined) {
    const text =
      typeof options.initialConfig === 'string'
        ? options.initialConfig
        : JSON.stringify(options.initialConfig, null, 2);
    await writeFile(join(configDir, 'config.json'), text);
  }
  if (options.initialSettings !== undefined)
    await writeFile(join(configDir, 'settings.json'), JSON.stringify(options.initialSettings, null, 2));
  let stderr = '';
  const appendStderr = (chunk: string) => (stderr += chunk);
  let current: RunningHost;
  try {
    current = await launch(configDir, options.hostEnv, appendStderr, () => stderr);
  } catch (error) {
    await rm(configDir, { recursive: true, force: true });
    throw error;
  }

  let stopping: Promise<number | null> | undefined;
  return {
    get url() {
      return current.url;
    },
    configDir,
    stderr: () => stderr,
    async restart() {
      const code = await stopProcess(current.child, current.exited);
      current = await launch(configDir, options.hostEnv, appendStderr, () => stderr);
      return code;
    },
    stop: () =>
      (stopping ??= (async () => {
        const code = await stopProcess(current.child, current.exited);
        await rm(configDir, { recursive: true, force: true, maxRetries: 3 });
        return code;
      })()),
  };
}

async function launch(
  configDir: string,
  extraEnv: Record<string, string> | undefined,
  onStderr: (chunk: string) => void,
  stderr: () => string,
): Promise<RunningHost> {
  const hostArgs = ['--headless', '--port', '0', '--config-dir', configDir, '--static-dir', STATIC_DIR];
  const argv = existsSync(BUNDLED_ENTRY)
    ? [BUNDLED_ENTRY, ...hostArgs]
    : ['--import', 'tsx', SOURCE_ENTRY, ...hostArgs];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: hostEnvironment(configDir, extraEnv),
  });
  child.stderr!.setEncoding('utf8').on('data', onStderr);
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));

  const url = await new Promise<string>((resolveUrl, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () =>
        reject(new Error(`Berth did not print its ready line within ${START_TIMEOUT_MS} ms.\nstderr:\n${stderr()}`)),
      START_TIMEOUT_MS,
    );
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = READY_LINE.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Berth exited with code ${code} before it was ready.\nstderr:\n${stderr()}`));
    });
  }).catch(async (error: unknown) => {
    await stopProcess(child, exited);
    throw error;
  });
  return { url, child, exited };
}

async function stopProcess(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS).unref());
  const outcome = await Promise.race([exited, timeout]);
  if (outcome !== 'timeout') return outcome;
  child.kill('SIGKILL');
  await exited;
  throw new Error(`Berth did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
}
