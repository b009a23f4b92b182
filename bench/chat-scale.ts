/// <reference lib="dom" />
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_MODEL_ID } from '../app/settings/model-table';
import type { Conversation } from '../shared/domain/chat';
import { FakeAnthropic } from '../e2e/fake-llm/fake-anthropic';
import { launchBerth, newProbedPage, pageMetrics, pageNow } from './browser-page';
import { buildConversations, writeConversations } from './generators/conversations';
import { generateLongConversation } from './generators/long-conversation';
import type { Measure } from './scale-table';
import { percentile } from './stats';

/**
 * The heavy user's chat rows: a message sent and its reply painted, with the fake
 * Anthropic API of the e2e suite (e2e/fake-llm) standing in for the model.
 */

const FAKE_KEY = 'sk-ant-bench-fake-key-0000';
const REPLY_MARK = 'bench-reply-done';

/** The generators' model is not in Berth's model table; the chat rows send with the default one. */
function withKnownModel(conversations: Conversation[]): Conversation[] {
  return conversations.map((conversation) => ({ ...conversation, model: DEFAULT_MODEL_ID }));
}

/** Berth with the fake API on a seeded config dir, the page on the given conversation. */
async function withChat<T>(
  browser: Browser,
  seed: (dir: string) => Promise<string>,
  reply: { text: string; delayMsPerChunk: number },
  body: (page: Page) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-bench-chat-'));
  const fake = await FakeAnthropic.start({ apiKey: FAKE_KEY, fallback: reply });
  try {
    await writeFile(join(dir, 'config.json'), JSON.stringify({ mcpServers: {} }));
    const open = await seed(dir);
    const berth = await launchBerth(dir, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: FAKE_KEY });
    const page = await newProbedPage(browser);
    try {
      await page.goto(berth.url);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Chat/ }).click();
      await page.locator(`[data-conversation="${open}"] button.conversation-main`).click();
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
      return await body(page);
    } finally {
      await page.close();
      await berth.stop();
    }
  } finally {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Types a message, presses Enter, and measures in the page until a frame shows
 * the reply's last words (the `replies`-th time they are in the list); frame intervals all the while.
 */
async function sendTimed(page: Page, replies = 1): Promise<{ replyMs: number; frames: number[] }> {
  await page.getByRole('textbox', { name: 'Message' }).fill('Hello from the bench');
  return page.evaluate(
    async ({ mark, replies }) => {
      const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
      if (box === null) throw new Error('no message box');
      const frames: number[] = [];
      const started = performance.now();
      let last: number | undefined;
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      for (;;) {
        // Frame intervals from the frames' own timestamps (their starts, on the display's clock); the
        // reply's time from performance.now() in the callback, as a frame's start can precede the send.
        const [frameAt, now] = await new Promise<[number, number]>((r) =>
          requestAnimationFrame((at) => r([at, performance.now()])),
        );
        if (last !== undefined) frames.push(frameAt - last);
        last = frameAt;
        const list = document.querySelector('ol[aria-label="Messages"]');
        if ((list?.textContent ?? '').split(mark).length - 1 >= replies) return { replyMs: now - started, frames };
        if (now - started > 60_000) throw new Error('the reply did not show within 60 s');
      }
    },
    { mark: REPLY_MARK, replies },
  );
}

/** Sends after the first, each timed: a person's next messages, not the first one after Berth started. */
const WARM_SENDS = 3;
/** Between two sends: the turn is over and its saves are written (the index waits a second of quiet), as between a person's messages. */
const PAUSE_BETWEEN_SENDS_MS = 1_500;

/**
 * Messages sent with 10 conversations and with 5,000, alternating which goes first: the first
 * send after start (cold: the host's first API request, the first render of a reply), then
 * WARM_SENDS more, whose median is the row's figure. Long tasks over all sends with 5,000.
 */
export async function sendMessageRound(browser: Browser, round = 0): Promise<Record<string, number>> {
  const reply = { text: `Short answer. ${REPLY_MARK}`, delayMsPerChunk: 0 };
  const run = (count: number) =>
    withChat(
      browser,
      async (dir) => {
        const conversations = withKnownModel(buildConversations({ count }));
        await writeConversations(dir, conversations);
        // The newest, the list's first row (the list is virtualized: far rows are not in the DOM).
        const open = conversations[0]?.id ?? '';
        // The generated conversations are garbage from here on; the fake API answers from this process, so collect them now, not during a send.
        conversations.length = 0;
        (globalThis as { gc?: () => void }).gc?.();
        // One start to write the conversations index, as a person's Berth has one: the timed start does not read (and then collect) every file.
        await (await launchBerth(dir)).stop();
        return open;
      },
      reply,
      async (page) => {
        const before = await pageNow(page);
        const sends: number[] = [];
        for (let send = 1; send <= 1 + WARM_SENDS; send++) {
          if (send > 1) {
            await page.getByRole('button', { name: 'Send' }).waitFor();
            await page.waitForTimeout(PAUSE_BETWEEN_SENDS_MS);
          }
          sends.push((await sendTimed(page, send)).replyMs);
        }
        const metrics = await pageMetrics(page, before);
        const warm = sends.slice(1).sort((a, b) => a - b);
        return {
          firstMs: sends[0]!,
          warmMs: warm[Math.floor(warm.length / 2)]!,
          longTasks: metrics.longTasksMs.length,
          longestTaskMs: Math.max(0, ...metrics.longTasksMs),
        };
      },
    );
  const fewFirst = round % 2 === 0;
  const fewBefore = fewFirst ? await run(10) : undefined;
  const many = await run(5_000);
  const few = fewBefore ?? (await run(10));
  return {
    fewMs: few.warmMs,
    manyMs: many.warmMs,
    ratio: many.warmMs / few.warmMs,
    fewFirstMs: few.firstMs,
    manyFirstMs: many.firstMs,
    firstRatio: many.firstMs / few.firstMs,
    longTasks: many.longTasks,
    longestTaskMs: many.longestTaskMs,
  };
}

/** A 300-word reply streamed (a word every 10 ms) into the open 2,000-message conversation: frame intervals. */
export async function streamReplyRound(browser: Browser): Promise<Record<string, number>> {
  const [conversation] = withKnownModel([generateLongConversation()]);
  if (conversation === undefined) throw new Error('no conversation generated');
  const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
  return withChat(
    browser,
    async (dir) => {
      await writeConversations(dir, [conversation]);
      return conversation.id;
    },
    { text: `${words} ${REPLY_MARK}`, delayMsPerChunk: 10 },
    async (page) => {
      const { replyMs, frames } = await sendTimed(page);
      return {
        framesP50Ms: percentile(frames, 50),
        framesP95Ms: percentile(frames, 95),
        framesMaxMs: Math.max(...frames),
        replyMs,
      };
    },
  );
}

export const CHAT_MEASURES: Record<'send-message' | 'stream-reply', Measure[]> = {
  'send-message': [
    {
      key: 'fewMs',
      label: `Enter → reply painted, 10 conversations, ms (median of sends 2–${1 + WARM_SENDS})`,
      target: '',
    },
    {
      key: 'manyMs',
      label: `Enter → reply painted, 5,000 conversations, ms (median of sends 2–${1 + WARM_SENDS})`,
      target: '',
    },
    { key: 'ratio', label: '5,000 / 10', target: '≤ 1.2×', pass: (v) => v <= 1.2, digits: 2 },
    { key: 'fewFirstMs', label: 'first send after start, 10 conversations, ms', target: '' },
    { key: 'manyFirstMs', label: 'first send after start, 5,000 conversations, ms', target: '' },
    { key: 'firstRatio', label: 'first send, 5,000 / 10', target: '', digits: 2 },
    {
      key: 'longTasks',
      label: 'long tasks (> 50 ms) over all sends with 5,000',
      target: 'none caused by the list',
      digits: 0,
    },
    { key: 'longestTaskMs', label: 'longest task with 5,000, ms', target: '≤ 50', pass: (v) => v <= 50, digits: 0 },
  ],
  'stream-reply': [
    { key: 'framesP50Ms', label: 'frame interval p50 while streaming, ms', target: '' },
    { key: 'framesP95Ms', label: 'frame interval p95 while streaming, ms', target: '≤ 20', pass: (v) => v <= 20 },
    { key: 'framesMaxMs', label: 'longest frame, ms', target: '' },
    { key: 'replyMs', label: 'Enter → whole reply painted, ms', target: '' },
  ],
};
