import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { FakeOpenAi } from './fake-llm/fake-openai';
import { calm, DOCS_DIR, expect, test } from './support/berth';
import { LABEL_SELECTOR, overflowing } from './support/layout';

// Settings → Model providers in the person's language (issue 36): a provider added and its models fetched
// through the Chinese and Korean words, and the same section in the pseudo-locale (40% longer) with nothing cut.

let fake: FakeOpenAi;
test.beforeEach(async () => {
  fake = await FakeOpenAi.start({ models: ['llama3.1:8b', 'qwen3:4b'] });
});
test.afterEach(async () => {
  await fake.close();
});

test.use({ viewport: { width: 1280, height: 980 } });

/** The section's labels, and its hints and results, which hold a provider's own words. */
const SECTION_TEXT = `${LABEL_SELECTOR}, .field-hint, .field-error, .test-result`;

async function shot(app: Page, section: Locator, name: string): Promise<void> {
  await calm(app);
  // Only the view's own scroller moves (scrollIntoView would shift the whole window under the top bar).
  await section.evaluate((element) => {
    let box = element.parentElement;
    while (
      box !== null &&
      !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY))
    )
      box = box.parentElement;
    if (box !== null) box.scrollTop += element.getBoundingClientRect().top - box.getBoundingClientRect().top - 16;
  });
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', name) });
}

/** The words of one language the flow finds its way by. */
interface Words {
  nav: string;
  settings: RegExp;
  section: string;
  add: string;
  name: string;
  baseUrl: string;
  edit: string;
  fetch: string;
  found: string;
  test: string;
  save: string;
  count: string;
}

const LANGUAGES: Array<{ locale: string; colorScheme: 'light' | 'dark'; shot: string; words: Words }> = [
  {
    locale: 'zh-CN',
    colorScheme: 'light',
    shot: 'providers-zh-CN.png',
    words: {
      nav: '主导航',
      settings: /^设置/,
      section: '模型提供商',
      add: '添加提供商',
      name: '名称',
      baseUrl: '基础 URL',
      edit: '编辑 Local models',
      fetch: '获取模型',
      found: '找到 2 个模型（2 个新模型）。保存后才会保留。',
      test: '测试与 Local models 的连接',
      save: '保存',
      count: '2 个模型',
    },
  },
  {
    locale: 'ko-KR',
    colorScheme: 'dark',
    shot: 'providers-ko-dark.png',
    words: {
      nav: '주 메뉴',
      settings: /^설정/,
      section: '모델 제공자',
      add: '제공자 추가',
      name: '이름',
      baseUrl: '기본 URL',
      edit: 'Local models 편집',
      fetch: '모델 가져오기',
      found: '모델 2개를 찾았습니다(새 모델 2개). 저장해야 유지됩니다.',
      test: 'Local models 연결 테스트',
      save: '저장',
      count: '모델 2개',
    },
  },
];

for (const { locale, colorScheme, shot: picture, words } of LANGUAGES) {
  test.describe(`in ${locale}, ${colorScheme}`, () => {
    test.use({ locale, colorScheme });

    test('adds a provider, fetches its models and tests it through the translated words', async ({ app }) => {
      await app.getByRole('navigation', { name: words.nav }).getByRole('button', { name: words.settings }).click();
      const section = app.getByRole('region', { name: words.section });
      await section.getByRole('button', { name: words.add }).click();
      const form = section.getByRole('form', { name: words.add });
      await form.getByLabel(words.name, { exact: true }).fill('Local models');
      await form.getByLabel(words.baseUrl).fill(fake.url);
      await form.getByRole('button', { name: words.add }).click();

      const edit = section.getByRole('form', { name: words.edit });
      await edit.getByRole('button', { name: words.fetch }).click();
      await expect(edit.getByText(words.found)).toBeVisible();
      await edit.getByRole('button', { name: words.test }).click();
      // The provider's answer is the host's words, shown as they came.
      await expect(edit.locator('.test-result.test-ok')).toBeVisible();
      expect(await overflowing(section, SECTION_TEXT)).toEqual([]);
      await shot(app, section, picture);

      await edit.getByRole('button', { name: words.save, exact: true }).click();
      await expect(edit).toBeHidden();
      // The Ollama preset, picked by default, gave the provider its id.
      await expect(section.locator('[data-provider="ollama"]')).toContainText(words.count);
    });
  });
}

test('nothing in Model providers is cut off in the pseudo-locale (40% longer text)', async ({ app }) => {
  // The token is kept in the tab's session: the same page with the locale forced.
  await app.goto(new URL('?locale=pseudo', app.url()).href);
  await expect(app.locator('html')).toHaveAttribute('lang', 'en-XA');
  await app.getByRole('navigation', { name: /Ṁ/ }).getByRole('button').last().click();
  const section = app.locator('section.settings-section', { has: app.locator('[data-provider="anthropic"]') });
  await section.locator('.settings-section-head button').click();
  const form = section.locator('form.provider-form');
  // The fields in order: name, id, base URL (then the key).
  await form.locator('input').nth(2).fill(fake.url);
  await form.locator('button[type="submit"]').click();
  await expect(form.getByRole('status').first()).toBeVisible();
  await form.locator('.provider-models button').first().click();
  await expect(form.locator('.provider-models [role="status"]')).toContainText('2');
  await form.locator('.provider-form-actions button').first().click();
  await expect(form.locator('.test-result.test-ok')).toBeVisible();
  expect(await overflowing(section, SECTION_TEXT)).toEqual([]);
  await shot(app, section, 'providers-pseudo.png');
});
