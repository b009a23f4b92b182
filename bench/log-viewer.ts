/// <reference lib="dom" />
// page.evaluate callbacks below run in Chromium, so this file sees the DOM types too.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { AUTOMATION_FLAGS, findBrowser } from '../app/cli/browser-lookup.mjs';
import { startBerth } from '../e2e/support/berth-process';
import { ECHO_SERVER } from './clients';
import { percentile } from './stats';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BROWSER_MODE = join(ROOT, 'dist', 'app', 'browser-mode.mjs');
const STATIC_DIR = join(ROOT, 'dist', 'renderer');
/** The same browser the e2e suite uses (BERTH_BROWSER, Playwright's Chromium, or the machine's). */
const BROWSER = findBrowser();
/** The search box waits this long after the last key before filtering (renderer/features/logs/logs-view.tsx). */
export const SEARCH_DEBOUNCE_MS = 150;

export interface LogViewerResult {
  rows: number;
  /** Frame intervals while the viewer followed the tail during the flood. */
  floodFrames: number;
  floodFrameP50Ms: number;
  floodFrameP95Ms: number;
  floodFrameMaxMs: number;
  /** Typing a search into the box → the filtered rows painted, per search (includes the debounce). */
  filterTotalsMs: number[];
  /** The same minus the search debounce: what the filter pass and the render cost. */
  filterAppliedMs: number[];
  scrollFrames: number;
  scrollFrameP50Ms: number;
  scrollFrameP95Ms: number;
  scrollFrameMaxMs: number;
}

/** Why the viewer bench cannot run here, or undefined when it can. */
export function logViewerUnavailable(): string | undefined {
  if (BROWSER.kind === 'not-found') return BROWSER.reason;
  if (!existsSync(join(STATIC_DIR, 'index.html')) || !existsSync(BROWSER_MODE))
    return 'Berth is not built (npm run build)';
  return undefined;
}

function browserPath(): string {
  if (BROWSER.kind === 'not-found') throw new Error(BROWSER.reason);
  return BROWSER.path;
}

/**
 * Berth in browser mode (the built app, as `npm start` runs it) with one
 * server that writes `rate` stderr lines/s for `seconds`, and the real
 * renderer in headless Chromium on the Logs view: frame intervals while it
 * follows the tail of the flood, then, with every line loaded, the time to
 * apply text filters and the frame intervals while scrolling.
 */
export async function benchLogViewer(rate: number, seconds: number): Promise<LogViewerResult> {
  const host = await startBerth({
    initialConfig: {
      mcpServers: {
        flood: {
          command: process.execPath,
          args: [ECHO_SERVER],
          env: { BENCH_FLOOD_LINES_PER_SEC: String(rate), BENCH_FLOOD_SECONDS: String(seconds) },
          enabled: false,
        },
      },
    },
  });
  const browser = await chromium.launch({ executablePath: browserPath(), args: [...AUTOMATION_FLAGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx compiles this file with esbuild's keepNames, which wraps named functions in __name(): give the page one.
    await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
    await page.goto(host.url);
    await startServer(page);
    await startFrameSampler(page);
    await page
      .getByText(/flood done: \d+ lines/)
      .first()
      .waitFor({ timeout: (seconds + 60) * 1000 });
    const flood = await stopFrameSampler(page);
    const rows = await shownOf(page);

    const filterTotalsMs: number[] = [];
    for (const term of ['line 1234', 'lorem', 'no such text anywhere', 'flood line 19999']) {
      filterTotalsMs.push(await timeFilter(page, term));
      await timeFilter(page, '');
    }

    const scroll = await scrollFrames(page, 120);
    return {
      rows,
      floodFrames: flood.length,
      floodFrameP50Ms: percentile(flood, 50),
      floodFrameP95Ms: percentile(flood, 95),
      floodFrameMaxMs: Math.max(...flood),
      filterTotalsMs,
      filterAppliedMs: filterTotalsMs.map((ms) => Math.max(0, ms - SEARCH_DEBOUNCE_MS)),
      scrollFrames: scroll.length,
      scrollFrameP50Ms: percentile(scroll, 50),
      scrollFrameP95Ms: percentile(scroll, 95),
      scrollFrameMaxMs: Math.max(...scroll),
    };
  } finally {
    await browser.close();
    await host.stop();
  }
}

/** Starts the flood server through the UI's own bridge (the server is disabled in the config so the page sees every line). */
async function startServer(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('button', { name: /^Servers/ }).click();
  await page.getByRole('button', { name: 'Start flood' }).first().click();
  await nav.getByRole('button', { name: /^Logs/ }).click();
  await page.getByRole('toolbar', { name: 'Log filters' }).waitFor();
}

/** The "N shown of M entries" footer's N. */
async function shownOf(page: Page): Promise<number> {
  const text = (await page.locator('.log-status').first().textContent()) ?? '';
  return Number(/([\d,.\s]+) shown/.exec(text)?.[1]?.replace(/\D/g, '') ?? Number.NaN);
}

async function startFrameSampler(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = { frames: [] as number[], last: performance.now(), running: true };
    (window as unknown as { __frames: typeof state }).__frames = state;
    const tick = (now: number): void => {
      state.frames.push(now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function stopFrameSampler(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const state = (window as unknown as { __frames: { frames: number[]; running: boolean } }).__frames;
    state.running = false;
    return state.frames.slice(1);
  });
}

/**
 * Types `term` into the search box the way a person does (an input event)
 * and measures, in the page, until a frame shows the new "N shown" count
 * settled for two frames.
 */
async function timeFilter(page: Page, term: string): Promise<number> {
  return page.evaluate(async (text) => {
    const input = document.querySelector<HTMLInputElement>('input[aria-label="Search logs"]');
    const status = document.querySelector('.log-status');
    if (input === null || status === null) throw new Error('the Logs view is not showing');
    const before = status.textContent;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    const started = performance.now();
    setValue?.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    const frame = (): Promise<number> => new Promise((resolveFrame) => requestAnimationFrame(resolveFrame));
    const deadline = started + 10_000;
    let changedAt: number | undefined;
    for (;;) {
      const now = await frame();
      if (now > deadline) throw new Error(`filtering for "${text}" did not finish within 10 s`);
      if (changedAt === undefined && status.textContent !== before) changedAt = now;
      // Same count for the whole debounce window after a change, or no change at all once it has passed twice.
      if (changedAt !== undefined && now - changedAt > 32) return changedAt - started;
      if (changedAt === undefined && now - started > 150 * 3 + 1_000) return now - started;
    }
  }, term);
}

/** Scrolls the list up 600 px a frame, `count` times, with follow turned off by the first scroll; returns the frame intervals. */
async function scrollFrames(page: Page, count: number): Promise<number[]> {
  return page.evaluate(async (frames) => {
    const scroller = document.querySelector<HTMLElement>('[role="log"][aria-label="Log entries"]');
    if (scroller === null) throw new Error('no log list');
    const intervals: number[] = [];
    let last = await new Promise<number>((r) => requestAnimationFrame(r));
    for (let i = 0; i < frames; i++) {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - 600);
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      intervals.push(now - last);
      last = now;
    }
    return intervals;
  }, count);
}
