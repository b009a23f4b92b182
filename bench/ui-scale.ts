/// <reference lib="dom" />
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { INDEX_FILE_NAME } from '../app/chat/conversation-index';
import { measureInitialJs } from '../scripts/check-initial-js.mjs';
import {
  frameWhen,
  launchBerth,
  launchChromium,
  newProbedPage,
  pageMetrics,
  pageNow,
  scriptTransfer,
  STATIC_DIR,
} from './browser-page';
import { buildConversations, writeConversations } from './generators/conversations';
import { countToolCalls, generateLongConversation } from './generators/long-conversation';
import { serverName } from './generators/many-tools';
import { ECHO_SERVER } from './clients';
import { SERVERS, TOOLS } from './many-servers';
import type { Measure } from './scale-table';

/**
 * A heavy user (thousands of conversations), in the built app's real renderer (browser mode, headless
 * Chromium): each function runs one round on a fresh config dir and returns one
 * value per measure; bench/run.ts runs the rounds and writes min/median/max.
 */

const CONVERSATIONS = 5_000;

async function withConfigDir<T>(seed: (dir: string) => Promise<void>, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-bench-ui-'));
  try {
    await writeFile(join(dir, 'config.json'), JSON.stringify({ mcpServers: {} }));
    await seed(dir);
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Berth on a seeded config dir, a fresh page on it; `measure` gets the page after navigation. */
async function onPage<T>(
  browser: Browser,
  seed: (dir: string) => Promise<void>,
  measure: (page: Page) => Promise<T>,
): Promise<T> {
  return withConfigDir(seed, async (dir) => {
    const berth = await launchBerth(dir);
    const page = await newProbedPage(browser);
    try {
      await page.goto(berth.url);
      return await measure(page);
    } finally {
      await page.close();
      await berth.stop();
    }
  });
}

/**
 * Clicks Chat in the main navigation (with no servers Berth opens on Servers) and
 * times, in the page, until a frame has the conversation list's rows in the DOM.
 * Every "until painted" time here reads performance.now() in the frame callback:
 * the callback's own timestamp is the frame's start, which can precede the click
 * (it read as -0.6 ms in one run).
 */
async function openChatTimed(page: Page): Promise<number> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Chat/ }).waitFor();
  return page.evaluate(async () => {
    const nav = document.querySelector('nav[aria-label="Main"]');
    const chat = [...(nav?.querySelectorAll('button') ?? [])].find((b) => /^Chat/.test(b.textContent ?? ''));
    if (chat === undefined) throw new Error('no Chat button in the main navigation');
    const started = performance.now();
    chat.click();
    for (;;) {
      const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
      if (document.querySelectorAll('ul[aria-label="Conversations"] > li').length > 0) return now - started;
      if (now - started > 60_000) throw new Error('the conversation list did not show within 60 s');
    }
  });
}

/** Opens Berth with no conversations: first paint, JavaScript over the wire, long tasks. */
export async function firstScreenRound(browser: Browser): Promise<Record<string, number>> {
  return onPage(
    browser,
    async () => undefined,
    async (page) => {
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      const settled = await frameWhen(page, () => document.readyState === 'complete' && performance.now());
      const metrics = await pageMetrics(page);
      const transfer = await scriptTransfer(page);
      return {
        initialJsGzipKb: measureInitialJs(STATIC_DIR).gzipBytes / 1024,
        jsOverWireKb: transfer.encodedBytes / 1024,
        jsCompressionRatio: transfer.encodedBytes / Math.max(1, transfer.decodedBytes),
        fcpMs: metrics.fcpMs ?? Number.NaN,
        loadedMs: settled,
        longTasks: metrics.longTasksMs.length,
      };
    },
  );
}

/** Opens Berth with 5,000 conversations: list painted, heap, search over titles, renaming one. */
export async function conversationListRound(browser: Browser): Promise<Record<string, number>> {
  return onPage(
    browser,
    (dir) => writeConversations(dir, buildConversations({ count: CONVERSATIONS })),
    async (page) => {
      const shownMs = await openChatTimed(page);
      const metrics = await pageMetrics(page);
      const search = await timeTitleSearch(page);
      const rename = await timeRename(page);
      return {
        listShownMs: shownMs,
        jsHeapMb: metrics.jsHeapUsedMb,
        domNodes: metrics.domNodes,
        longTasks: metrics.longTasksMs.length,
        searchMs: search,
        renameMs: rename,
      };
    },
  );
}

/** Types into the conversation search box (when the list has one) and times until the list shows the matches. */
async function timeTitleSearch(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const input = document.querySelector<HTMLInputElement>(
      'input[type="search"][aria-label*="onversation" i], input[aria-label*="Search conversations" i]',
    );
    if (input === null) return Number.NaN;
    const list = () => document.querySelectorAll('ul[aria-label="Conversations"] > li').length;
    const before = list();
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    const started = performance.now();
    // A title bench/generators/conversations.ts writes (and a few that extend it: #480…).
    setValue?.call(input, 'Harbour schedule #48');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    for (;;) {
      const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
      if (list() !== before) return now - started;
      if (now - started > 5_000) throw new Error('searching the conversation titles changed nothing within 5 s');
    }
  });
}

/** Renames the first conversation shown: Enter in the title box → the new title painted in the list. */
async function timeRename(page: Page): Promise<number> {
  const search = page.locator(
    'input[type="search"][aria-label*="onversation" i], input[aria-label*="Search conversations" i]',
  );
  if ((await search.count()) > 0) await search.first().fill('');
  // The row's Rename button shows on hover; hover the row first, as a person's pointer would.
  const row = page.locator('ul[aria-label="Conversations"] > li').first();
  await row.hover({ timeout: 10_000 });
  await row.getByRole('button', { name: /^Rename/ }).click({ timeout: 10_000 });
  const box = page.getByRole('textbox', { name: 'Conversation title' });
  await box.fill('Renamed in the bench');
  return page.evaluate(async () => {
    const input = document.querySelector<HTMLInputElement>('input[aria-label="Conversation title"]');
    if (input === null) throw new Error('no title box');
    const started = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    for (;;) {
      const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
      const titles = [...document.querySelectorAll('.conversation-title')].map((t) => t.textContent);
      if (titles.includes('Renamed in the bench')) return now - started;
      if (now - started > 10_000) throw new Error('the renamed title did not show within 10 s');
    }
  });
}

/**
 * Berth's ready line with 5,000 conversations and with none, in alternating order. The
 * 5,000 are written once per round and Berth started on them once without an index
 * (`rebuildMs`: every file read, the index written before the ready line); the timed
 * start (`fullMs`) is the next one, with the index on disk, as every start after the
 * first is for a person.
 */
export async function startupRound(round: number): Promise<Record<string, number>> {
  const start = async (dir: string): Promise<number> => {
    const berth = await launchBerth(dir);
    await berth.stop();
    return berth.readyMs;
  };
  const empty = (): Promise<number> => withConfigDir(async () => undefined, start);
  const emptyFirst = round % 2 === 0;
  const emptyBefore = emptyFirst ? await empty() : Number.NaN;
  const { rebuildMs, fullMs } = await withConfigDir(
    (dir) => writeConversations(dir, buildConversations({ count: CONVERSATIONS })),
    async (dir) => {
      const rebuildMs = await start(dir);
      const index = join(dir, 'conversations', INDEX_FILE_NAME);
      if (!(await stat(index).catch(() => undefined))?.isFile())
        throw new Error(`the first start wrote no ${index}: the next start would rebuild again`);
      return { rebuildMs, fullMs: await start(dir) };
    },
  );
  const emptyMs = emptyFirst ? emptyBefore : await empty();
  return { emptyMs, fullMs, ratio: fullMs / emptyMs, rebuildMs, rebuildRatio: rebuildMs / emptyMs };
}

/** Opens a 2,000-message conversation (249 tool calls) from the list: first screen painted, DOM size. */
export async function longConversationRound(browser: Browser): Promise<Record<string, number>> {
  const conversation = generateLongConversation();
  if (countToolCalls(conversation) !== 249)
    throw new Error(`the generator made ${countToolCalls(conversation)} tool calls, expected 249`);
  const last = conversation.messages.at(-1);
  const lastText =
    last?.content
      .find((block) => block.type === 'text')
      ?.text.split('\n')
      .at(-1) ?? '';
  return onPage(
    browser,
    (dir) => writeConversations(dir, [conversation]),
    async (page) => {
      await openChatTimed(page);
      const before = await pageNow(page);
      await page
        .locator(`[data-conversation="${conversation.id}"] button.conversation-main`)
        .click({ noWaitAfter: true });
      const shownAt = await frameWhen(
        page,
        (text) =>
          [...document.querySelectorAll('ol[aria-label="Messages"] li')].some((li) =>
            (li.textContent ?? '').includes(text),
          ) && performance.now(),
        lastText.replace(/^- /, ''),
      );
      const metrics = await pageMetrics(page, before);
      return {
        firstScreenMs: shownAt - before,
        domNodes: metrics.domNodes,
        jsHeapMb: metrics.jsHeapUsedMb,
        longTasks: metrics.longTasksMs.length,
      };
    },
  );
}

/**
 * 50 servers with 2,000 tools running, one conversation open: the chat's tool
 * switches opened, timed in the page from the click to the first frame with
 * the switches painted. Before timing, the popover is opened until it lists
 * every tool (the servers are still starting at first).
 */
export async function toolSwitchesRound(browser: Browser): Promise<Record<string, number>> {
  const servers = Object.fromEntries(
    Array.from({ length: SERVERS }, (_, index) => [
      serverName(index),
      { command: process.execPath, args: [ECHO_SERVER], env: { BENCH_EXTRA_TOOLS: String(TOOLS / SERVERS) } },
    ]),
  );
  const [conversation] = buildConversations({ count: 1 });
  if (conversation === undefined) throw new Error('the generator made no conversation');
  return onPage(
    browser,
    async (dir) => {
      await writeFile(join(dir, 'config.json'), JSON.stringify({ mcpServers: servers }));
      await writeConversations(dir, [conversation]);
    },
    async (page) => {
      await openChatTimed(page);
      await page.locator(`[data-conversation="${conversation.id}"] button.conversation-main`).click();
      // Its name carries the counts once the view is in ("Tools 40/2000 for this conversation").
      const trigger = page.locator('button.tools-trigger');
      // The switches are virtualized (only the rows in view exist), so readiness is the popover's
      // own count: every server's tools listed once all 50 are ready.
      const head = page.locator('.tools-popover .popover-head');
      const listed = async (): Promise<number> => Number(/of (\d+)/.exec((await head.textContent()) ?? '')?.[1] ?? 0);
      const deadline = Date.now() + 120_000;
      for (;;) {
        await trigger.click();
        await head.waitFor({ timeout: 30_000 });
        await page.waitForTimeout(500);
        const shown = await listed();
        await page.keyboard.press('Escape');
        await head.waitFor({ state: 'detached', timeout: 10_000 });
        if (shown >= TOOLS) break;
        if (Date.now() > deadline)
          throw new Error(`only ${shown} of ${TOOLS} tools showed in the tool switches within 120 s`);
        await page.waitForTimeout(1_000);
      }
      const before = await pageNow(page);
      const openMs = await page.evaluate(async () => {
        const button = document.querySelector<HTMLButtonElement>('button.tools-trigger');
        if (button === null) throw new Error('no tools button');
        const started = performance.now();
        button.click();
        for (;;) {
          const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
          // The first frame with the switches painted (the rows in view of the virtualized list).
          if (document.querySelectorAll('[aria-label="Servers and tools"] .tools-row').length > 0) return now - started;
          if (now - started > 10_000) throw new Error('the tool switches did not open within 10 s');
        }
      });
      const metrics = await pageMetrics(page, before);
      return { openMs, domNodes: metrics.domNodes, longTasks: metrics.longTasksMs.length };
    },
  );
}

export async function withChromium<T>(body: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launchChromium();
  try {
    return await body(browser);
  } finally {
    await browser.close();
  }
}

/** The measures each Chromium row reports, with their targets. */
export const UI_MEASURES: Record<
  'first-screen' | 'conversation-list' | 'startup-conversations' | 'long-conversation' | 'tool-switches',
  Measure[]
> = {
  'tool-switches': [
    { key: 'openMs', label: 'click → the switches painted, ms', target: '< 100', pass: (v) => v < 100 },
    { key: 'domNodes', label: 'DOM nodes with it open', target: '', digits: 0 },
    { key: 'longTasks', label: 'long tasks (> 50 ms) while opening', target: '', digits: 0 },
  ],
  'first-screen': [
    {
      key: 'initialJsGzipKb',
      label: 'initial JS (index.html + preloads), gzip KB',
      target: '≤ 150',
      pass: (v) => v <= 150,
    },
    { key: 'jsOverWireKb', label: 'JS over the wire at load, KB', target: 'compressed' },
    {
      key: 'jsCompressionRatio',
      label: 'JS over the wire / decoded',
      target: '< 0.5 (compressed transfer)',
      pass: (v) => v < 0.5,
      digits: 2,
    },
    { key: 'fcpMs', label: 'first contentful paint, ms', target: 'measured (was 1.0–1.4 s)' },
    { key: 'loadedMs', label: 'load event done, ms', target: '' },
    { key: 'longTasks', label: 'long tasks (> 50 ms) during load', target: '', digits: 0 },
  ],
  'conversation-list': [
    {
      key: 'listShownMs',
      label: `Chat clicked → list of ${CONVERSATIONS} painted, ms`,
      target: '< 300',
      pass: (v) => v < 300,
    },
    { key: 'jsHeapMb', label: 'JS heap used, MB', target: '< 60', pass: (v) => v < 60 },
    { key: 'domNodes', label: 'DOM nodes', target: '', digits: 0 },
    { key: 'longTasks', label: 'long tasks (> 50 ms) until painted', target: '', digits: 0 },
    { key: 'searchMs', label: 'search over titles typed → list painted, ms', target: '< 50', pass: (v) => v < 50 },
    { key: 'renameMs', label: 'rename one: Enter → new title painted, ms', target: '< 100', pass: (v) => v < 100 },
  ],
  'startup-conversations': [
    { key: 'emptyMs', label: 'spawn → ready line, no conversations, ms', target: '' },
    { key: 'fullMs', label: `spawn → ready line, ${CONVERSATIONS} conversations (index on disk), ms`, target: '' },
    {
      key: 'ratio',
      label: `${CONVERSATIONS} (index on disk) / empty`,
      target: '≤ 1.2×',
      pass: (v) => v <= 1.2,
      digits: 2,
    },
    {
      key: 'rebuildMs',
      label: `spawn → ready line, ${CONVERSATIONS} conversations, no index (rebuilt), ms`,
      target: 'first start only',
    },
    { key: 'rebuildRatio', label: `${CONVERSATIONS} rebuilding the index / empty`, target: '', digits: 2 },
  ],
  'long-conversation': [
    { key: 'firstScreenMs', label: 'click → last messages painted, ms', target: '< 300', pass: (v) => v < 300 },
    {
      key: 'domNodes',
      label: 'DOM nodes with it open',
      target: '≤ 5,000 (bounded)',
      pass: (v) => v <= 5_000,
      digits: 0,
    },
    { key: 'jsHeapMb', label: 'JS heap used, MB', target: '' },
    { key: 'longTasks', label: 'long tasks (> 50 ms) while opening', target: '', digits: 0 },
  ],
};
