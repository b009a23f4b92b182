import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { calm, chatTest as test, DOCS_DIR, expect, SERVER_EVERYTHING_ENTRY, toolNamed } from './support/berth';
import { englishLeft, type EnglishWord } from './support/english-left';
import { overflowing, splitSentences } from './support/layout';
import { SERVER_EVERYTHING_WORDS } from './support/server-words';
import { keptByTranslators, word, wordPattern, type CatalogLocale } from './support/words';

// Berth's main flows in the person's language (issue 36): a server added through the form, a chat with a tool call
// and its consent, a sampling review, an elicitation form, and Settings, each in Chinese (light), Korean (dark) and
// the pseudo-locale (English accented and 40% longer, which finds the layouts that break with longer words). Every
// element is found by its translated name, read from the catalogs; at every picture nothing is cut off and no word is
// left in English but those the server, the model and the person wrote.

interface Pass {
  /** The catalog the words come from. */
  catalog: CatalogLocale;
  /** The browser's language (the pseudo-locale is forced by the address instead). */
  browser: string;
  colorScheme: 'light' | 'dark';
  /** The screenshots' suffix: `<flow>-<suffix>.png`. */
  suffix: string;
  /** What the person writes in the chat, in their language: for the echo, the sampling and the form. */
  asks: [string, string, string];
}

const PASSES: Pass[] = [
  {
    catalog: 'zh-CN',
    browser: 'zh-CN',
    colorScheme: 'light',
    suffix: 'zh-CN',
    asks: ['请用 echo 回显一句话', '请让服务器向模型要一个港口的名字', '服务器想问我几个问题'],
  },
  {
    catalog: 'ko',
    browser: 'ko-KR',
    colorScheme: 'dark',
    suffix: 'ko-dark',
    asks: ['echo로 한 문장을 돌려줘', '서버가 모델에게 항구 이름을 물어보게 해 줘', '서버가 몇 가지 물어볼 거야'],
  },
  {
    catalog: 'pseudo',
    browser: 'en-US',
    colorScheme: 'light',
    suffix: 'pseudo',
    asks: ['Please echo a sentence', 'Let the server ask for a harbour', 'The server has questions'],
  },
];

/**
 * English still on screen that is not the server's, the model's or the person's: host messages without a code
 * yet, each entry the text and the file it comes from. Delete an entry when its message gets a code; the check
 * then holds it to the catalog.
 */
const AWAITING_CONVERSION: Array<{ text: string | RegExp; file: string }> = [];

/** What server-everything, the fake model and the person write in these flows, inside other text: theirs. */
const WRITTEN_PARTS: Array<string | RegExp> = [
  'everything',
  'hello from the model',
  // A server's descriptions, also where Berth adds a hint of its own after them.
  ...[...SERVER_EVERYTHING_WORDS].filter((text) => text.length >= 12 && text.includes(' ')),
  // Models by their names.
  /Claude \w+ [\d.]+/,
  // Anthropic's key format, the same in every language.
  'sk-ant-…',
  // The fake model's own words.
  'Rotterdam.',
  'Harbour noted.',
  'Form received.',
];

async function open(app: Page, pass: Pass): Promise<void> {
  // The token is kept in the tab's session: the same page with the locale forced.
  if (pass.catalog === 'pseudo') await app.goto(new URL('?locale=pseudo', app.url()).href);
  await expect(app.locator('html')).toHaveAttribute('lang', pass.catalog === 'pseudo' ? 'en-XA' : pass.catalog);
}

/** Words found that nobody expects, with where they are. */
function unexpected(found: EnglishWord[]): string[] {
  return found
    .filter(
      ({ text }) =>
        !AWAITING_CONVERSION.some((left) =>
          typeof left.text === 'string' ? text === left.text : left.text.test(text),
        ),
    )
    .map(({ word: w, text, where }) => `"${w}" in ${where}: "${text.slice(0, 160)}"`);
}

/** The checks of every step, then its picture in docs/screenshots. */
async function step(app: Page, pass: Pass, flow: string, written: Array<string | RegExp> = []): Promise<void> {
  await calm(app);
  // The pseudo-locale formats dates and times as English does (en-XA).
  const dates =
    pass.catalog === 'pseudo' ? [/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d/, /\b[AP]M\b/] : [];
  const left = await englishLeft(app, {
    whole: SERVER_EVERYTHING_WORDS,
    parts: [...WRITTEN_PARTS, ...dates, ...written],
    words: keptByTranslators(pass.catalog),
  });
  // Soft: one run reports every step's problems.
  expect.soft(await overflowing(app), `nothing cut off in ${flow}`).toEqual([]);
  expect.soft(await splitSentences(app), `no sentence split into flex items in ${flow}`).toEqual([]);
  expect.soft(unexpected(left), `no English left in ${flow}`).toEqual([]);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `${flow}-${pass.suffix}.png`) });
}

function nav(app: Page, pass: Pass, view: 'shell.view.servers' | 'shell.view.chat' | 'shell.view.settings') {
  return app
    .getByRole('navigation', { name: word(pass.catalog, 'shell.nav.label') })
    .getByRole('button', { name: new RegExp(`^${escape(word(pass.catalog, view))}`) });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const pass of PASSES) {
  const w = (id: Parameters<typeof word>[1], values?: Parameters<typeof word>[2]) => word(pass.catalog, id, values);

  // One host per language, the flows in the order a new person meets them: Settings last, with the decisions made.
  test.describe(`in ${pass.suffix}`, () => {
    test.use({ locale: pass.browser, colorScheme: pass.colorScheme });

    test('adds a server through the form; a tool call and its consent, a sampling review, a form; Settings', async ({
      app,
      fakeLlm,
    }) => {
      fakeLlm.script([
        toolNamed('echo', { message: 'hello from the model' }),
        { text: '{{lastToolResult}}' },
        toolNamed('trigger-sampling-request', { prompt: 'Name a harbour', maxTokens: 60 }),
        { text: 'Rotterdam.' },
        { text: 'Harbour noted.' },
        toolNamed('trigger-elicitation-request'),
        { text: 'Form received.' },
      ]);
      await open(app, pass);
      await app.getByRole('button', { name: w('servers.empty.addOwn') }).click();
      const form = app.getByRole('dialog', { name: w('servers.form.addTitle') });
      await form.getByLabel(w('servers.form.name'), { exact: true }).fill('everything');
      await form.getByLabel(w('servers.form.command'), { exact: true }).fill(process.execPath);
      for (const [index, value] of [SERVER_EVERYTHING_ENTRY, 'stdio'].entries()) {
        await form.getByRole('button', { name: w('servers.args.add') }).click();
        await form.getByLabel(w('servers.args.argument', { index: index + 1 }), { exact: true }).fill(value);
      }
      await step(app, pass, 'add-server-form');
      await form.getByRole('button', { name: w('servers.form.add'), exact: true }).click();
      await expect(form).toBeHidden();

      const list = app.getByRole('region', { name: w('servers.view.label'), exact: true });
      const server = list.getByRole('listitem').filter({ has: app.getByText('everything', { exact: true }) });
      await expect(server.getByRole('status')).toHaveText(w('servers.status.ready'), { timeout: 30_000 });
      await server.getByRole('button').first().click();
      const detail = app.getByRole('region', {
        name: w('servers.detail.label', { server: 'everything' }),
        exact: true,
      });
      await detail.getByRole('tab', { name: new RegExp(`^${escape(w('servers.tab.tools'))}`) }).click();
      const echo = detail.getByRole('listitem').filter({ has: app.getByText('echo', { exact: true }) });
      await echo.getByRole('button').first().click();
      await expect(echo).toContainText('Echoes back the input string');
      await step(app, pass, 'add-server');

      await nav(app, pass, 'shell.view.chat').click();
      await app
        .getByRole('region', { name: w('chat.list.heading') })
        .getByRole('button', { name: w('chat.list.new'), exact: true })
        .click();
      // In Chinese the composer's box and a sampling request's messages are both 消息: the composer's own.
      const input = app
        .getByRole('group', { name: w('chat.composer.group'), exact: true })
        .getByLabel(w('chat.composer.input'), { exact: true });
      // Each message starts a tool call whose dialog hides the composer from the accessibility tree at once.
      const send = async (text: string) => {
        await input.fill(text);
        await input.press('Enter');
      };
      const dialog = (id: Parameters<typeof word>[1]) =>
        app.getByRole('dialog', { name: wordPattern(pass.catalog, id) });
      const button = (id: Parameters<typeof word>[1]) =>
        app.getByRole('dialog').getByRole('button', { name: w(id), exact: true });
      const card = (tool: string) =>
        app.getByRole('article', { name: w('chat.call.label', { tool }), exact: true, includeHidden: true });

      await send(pass.asks[0]);
      await expect(dialog('pending.tool.title')).toBeVisible({ timeout: 30_000 });
      // The person's words, and the tools whose cards stay on screen as the flow goes on.
      const shown: Array<string | RegExp> = [...pass.asks, 'echo'];
      await step(app, pass, 'consent', shown);
      await button('pending.tool.choice.allow-once').click();
      await expect(card('echo')).toContainText(w('chat.call.status.done'));
      shown.push('Echo:');
      await step(app, pass, 'consent-done', shown);

      await send(pass.asks[1]);
      await expect(dialog('pending.tool.title')).toBeVisible({ timeout: 30_000 });
      await button('pending.tool.choice.allow-once').click();
      await expect(dialog('pending.sampling.title')).toBeVisible({ timeout: 30_000 });
      shown.push('trigger-sampling-request', 'Name a harbour');
      await step(app, pass, 'sampling', shown);
      await button('pending.sampling.approve').click();
      await expect(dialog('pending.answer.title')).toBeVisible({ timeout: 30_000 });
      await step(app, pass, 'sampling-answer', shown);
      await button('pending.answer.approve').click();
      await expect(card('trigger-sampling-request')).toContainText(w('chat.call.status.done'));

      await send(pass.asks[2]);
      await expect(dialog('pending.tool.title')).toBeVisible({ timeout: 30_000 });
      await button('pending.tool.choice.allow-once').click();
      await expect(dialog('pending.elicit.formTitle')).toBeVisible({ timeout: 30_000 });
      shown.push('trigger-elicitation-request');
      await step(app, pass, 'elicitation', shown);
      await app
        .getByRole('dialog')
        .getByLabel(/^String(\s*\*)?/)
        .first()
        .fill('Ada Lovelace');
      await button('pending.elicit.accept').click();
      await expect(card('trigger-elicitation-request')).toContainText(w('chat.call.status.done'));

      await nav(app, pass, 'shell.view.settings').click();
      await expect(app.getByRole('heading', { name: w('settings.audit.title') })).toBeVisible();
      // The whole view in one picture: a window as much taller as the view's scroller has hidden below.
      const hidden = await app.evaluate(() =>
        Math.max(
          ...[...document.querySelectorAll<HTMLElement>('main *')]
            .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowY))
            .map((el) => el.scrollHeight - el.clientHeight),
        ),
      );
      await app.setViewportSize({ width: 1280, height: 800 + Math.max(0, hidden) + 24 });
      await step(app, pass, 'settings', shown);
    });
  });
}
