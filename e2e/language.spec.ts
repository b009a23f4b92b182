import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { calm, expect, test } from './support/berth';
import { overflowing } from './support/layout';

// Berth in the person's language (issue 36): the browser's language picks the catalog, the
// Language setting switches it live, and the pseudo-locale (longer, accented text) finds what
// does not fit. The converted parts today: the shell and Settings' Language section.

const SHOTS = join(import.meta.dirname, '..', 'docs', 'screenshots');

async function shot(app: Page, name: string): Promise<void> {
  await calm(app);
  await mkdir(SHOTS, { recursive: true });
  await app.screenshot({ path: join(SHOTS, name) });
}

test.describe('a person whose browser speaks Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('gets the shell and Settings in Chinese, and 한국어 applies at once when chosen', async ({ app }) => {
    await expect(app.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(app.getByTestId('connection-state')).toHaveText('已连接');
    const nav = app.getByRole('navigation', { name: '主导航' });
    await expect(nav.getByRole('button', { name: /^服务器/ })).toBeVisible();
    await expect(app.getByRole('button', { name: '添加服务器' })).toBeVisible();

    await nav.getByRole('button', { name: /^设置/ }).click();
    await expect(app.getByRole('heading', { name: '设置', level: 1 })).toBeVisible();
    await expect(app.getByRole('heading', { name: '语言' })).toBeVisible();
    await shot(app, 'language-zh-CN.png');

    await app.getByLabel('界面语言').selectOption('ko');
    await expect(app.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(app.getByRole('heading', { name: '언어' })).toBeVisible();
    await expect(app.getByRole('heading', { name: '설정', level: 1 })).toBeVisible();
    await expect(app.getByRole('navigation', { name: '주 메뉴' }).getByRole('button', { name: /^서버/ })).toBeVisible();
    await expect(app.getByTestId('connection-state')).toHaveText('연결됨');

    // The setting is the host's: a reload keeps Korean over the browser's Chinese.
    await app.reload();
    await expect(app.getByRole('heading', { name: '언어' })).toBeVisible();
  });
});

test.describe('dark, in Korean', () => {
  test.use({ locale: 'ko-KR', colorScheme: 'dark' });

  test('the shell and Settings', async ({ app }) => {
    await expect(app.locator('html')).toHaveAttribute('lang', 'ko');
    await app.getByRole('navigation', { name: '주 메뉴' }).getByRole('button', { name: /^설정/ }).click();
    await expect(app.getByRole('heading', { name: '언어' })).toBeVisible();
    await shot(app, 'language-ko-dark.png');
  });
});

test('nothing overflows in the pseudo-locale (40% longer text) in the shell and Settings', async ({ app }) => {
  await expect(app.getByTestId('connection-state')).toHaveText('Connected');
  // The token is kept in the tab's session: the same page with the locale forced.
  await app.goto(new URL('?locale=pseudo', app.url()).href);
  await expect(app.locator('html')).toHaveAttribute('lang', 'en-XA');
  const nav = app.getByRole('navigation', { name: /Ṁ/ });
  await expect(nav).toBeVisible();
  expect(await overflowing(app)).toEqual([]);
  await nav.getByRole('button').last().click();
  await expect(app.getByRole('heading', { name: /Ļàà/ })).toBeVisible();
  expect(await overflowing(app)).toEqual([]);
  await shot(app, 'language-pseudo.png');
});
