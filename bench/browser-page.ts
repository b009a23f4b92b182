/// <reference lib="dom" />
// page.evaluate callbacks below run in Chromium, so this file sees the DOM types too.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AUTOMATION_FLAGS, findBrowser } from '../app/cli/browser-lookup.mjs';

/**
 * What the Chromium rows share: Berth's browser mode started on a given config
 * dir (timed to its ready line), a headless Chromium, and page metrics —
 * first contentful paint, long tasks (PerformanceObserver), DOM nodes and JS
 * heap (CDP Performance.getMetrics), bytes over the wire per resource.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BROWSER_MODE = join(ROOT, 'dist', 'app', 'browser-mode.mjs');
export const STATIC_DIR = join(ROOT, 'dist', 'renderer');
const BROWSER = findBrowser();
const READY_LINE = /Berth is ready at (http:\/\/\S+)/;

/** Why the Chromium rows cannot run here, or undefined when they can. */
export function browserRowsUnavailable(): string | undefined {
  if (BROWSER.kind === 'not-found') return BROWSER.reason;
  if (!existsSync(join(STATIC_DIR, 'index.html')) || !existsSync(BROWSER_MODE))
    return 'Berth is not built (npm run build)';
  return undefined;
}

export interface RunningBerth {
  url: string;
  /** Spawn → the ready line on stdout. */
  readyMs: number;
  stop(): Promise<void>;
}

/** `browser-mode --headless --port 0` on `configDir` (the built bundle), timed to its ready line. */
export async function launchBerth(configDir: string, extraEnv: Record<string, string> = {}): Promise<RunningBerth> {
  const started = performance.now();
  const env: NodeJS.ProcessEnv = { ...process.env, BERTH_CONFIG_DIR: configDir };
  // The runner's own ANTHROPIC_* variables never reach the host: no row can call the real API.
  for (const key of Object.keys(env)) if (key.startsWith('ANTHROPIC_')) delete env[key];
  Object.assign(env, extraEnv);
  const child = spawn(
    process.execPath,
    [BROWSER_MODE, '--headless', '--port', '0', '--config-dir', configDir, '--static-dir', STATIC_DIR],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((resolveUrl, rejectUrl) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = READY_LINE.exec(stdout);
      if (match?.[1] !== undefined) resolveUrl(match[1]);
    });
    child.once('exit', (code) =>
      rejectUrl(new Error(`browser mode exited (${String(code)}) before it was ready:\n${stderr}`)),
    );
    setTimeout(() => rejectUrl(new Error(`browser mode was not ready within 60 s:\n${stderr}`)), 60_000).unref();
  });
  const readyMs = performance.now() - started;
  return {
    url,
    readyMs,
    stop: async () => {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  if (BROWSER.kind === 'not-found') throw new Error(BROWSER.reason);
  return chromium.launch({ executablePath: BROWSER.path, args: [...AUTOMATION_FLAGS] });
}

/** A 1280×800 page that records long tasks from its first script on. */
export async function newProbedPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // tsx compiles this file with esbuild's keepNames, which wraps named functions in __name(): give the page one.
  await page.addInitScript({
    content: `globalThis.__name = (fn) => fn;
      globalThis.__longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__longTasks.push({ start: e.startTime, duration: e.duration }); })
        .observe({ type: 'longtask', buffered: true });`,
  });
  return page;
}

export interface PageMetrics {
  /** First contentful paint, from navigation start. */
  fcpMs: number | undefined;
  /** Long tasks (> 50 ms) since `sinceMs` (page time). */
  longTasksMs: number[];
  domNodes: number;
  jsHeapUsedMb: number;
}

/** Metrics now; long tasks counted from page time `sinceMs` (0: since navigation). */
export async function pageMetrics(page: Page, sinceMs = 0): Promise<PageMetrics> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
  const inPage = await page.evaluate((since) => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    const tasks = (globalThis as unknown as { __longTasks: Array<{ start: number; duration: number }> }).__longTasks;
    return {
      fcp,
      longTasks: tasks.filter((t) => t.start >= since).map((t) => t.duration),
      nodes: document.getElementsByTagName('*').length,
    };
  }, sinceMs);
  return {
    fcpMs: inPage.fcp,
    longTasksMs: inPage.longTasks,
    domNodes: inPage.nodes,
    jsHeapUsedMb: metric('JSHeapUsedSize') / 1024 ** 2,
  };
}

export interface ScriptTransfer {
  /** Bytes of JavaScript over the wire (compressed when the server compressed). */
  encodedBytes: number;
  /** The same scripts, decompressed. */
  decodedBytes: number;
}

/** JavaScript the page fetched so far, from the Resource Timing entries. */
export async function scriptTransfer(page: Page): Promise<ScriptTransfer> {
  return page.evaluate(() => {
    const scripts = performance
      .getEntriesByType('resource')
      .filter((e) => (e as PerformanceResourceTiming).name.endsWith('.js')) as PerformanceResourceTiming[];
    return {
      encodedBytes: scripts.reduce((n, e) => n + e.encodedBodySize, 0),
      decodedBytes: scripts.reduce((n, e) => n + e.decodedBodySize, 0),
    };
  });
}

/** Page time now (ms since navigation start). */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/**
 * Waits, checking every animation frame in the page, until `predicate` (run in
 * the page with `arg`) returns a number — by convention `performance.now()` once
 * what it waits for holds, false before — and resolves with that number. A
 * function, not a string: the page's CSP forbids evaluating strings.
 */
export async function frameWhen(
  page: Page,
  predicate: (arg: string) => number | false,
  arg = '',
  timeoutMs = 60_000,
): Promise<number> {
  const handle = await page.waitForFunction(predicate, arg, { polling: 'raf', timeout: timeoutMs });
  return (await handle.jsonValue()) as number;
}
