import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { calm, chatTest as test, DOCS_DIR, everythingServerConfig, expect } from './support/berth';

// The chat's own controls in the pseudo-locale (issue 36): accented, 40% longer text in the context
// meter and its popover, the reasoning menu and a prompt's form, where a word cut off or a control
// pushed out of its box shows first. The conversation is set up in English; the reload into the
// pseudo-locale keeps the place (renderer/store/place-memory.ts).

const SHOTS = join(DOCS_DIR, 'screenshots');

/** `scope` and the controls and labels inside it whose text is cut off or spills out of their box. */
async function overflowing(scope: Locator): Promise<string[]> {
  return scope.evaluate((root: HTMLElement) =>
    [
      root,
      ...root.querySelectorAll<HTMLElement>(
        'button, .chip, label, legend, th, td, h3, [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], [role="option"], .menu-label',
      ),
    ]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: "${el.textContent?.trim() ?? ''}"`),
  );
}

/** Whether `box` lies inside the window (a popover or menu pushed past an edge is cut off). */
async function insideWindow(app: Page, box: Locator): Promise<boolean> {
  const rect = await box.boundingBox();
  const size = app.viewportSize();
  if (rect === null || size === null) return false;
  return rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= size.width && rect.y + rect.height <= size.height;
}

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

test('the context meter, the reasoning menu and a prompt form fit in the pseudo-locale', async ({ app, fakeLlm }) => {
  test.setTimeout(90_000);
  fakeLlm.script([{ text: 'Hello! How can I help?' }]);
  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  await chat.waitForServer('everything');
  await chat.send('Hello');
  await chat.waitForIdle();

  await app.goto(new URL('?locale=pseudo', app.url()).href);
  await expect(app.locator('html')).toHaveAttribute('lang', 'en-XA');
  await mkdir(SHOTS, { recursive: true });

  const meter = app.getByTestId('context-meter');
  await expect(meter).toContainText('⟦');
  expect(await overflowing(meter)).toEqual([]);
  await meter.click();
  const popover = app.locator('.context-popover');
  await expect(popover.getByRole('table')).toBeVisible();
  expect(await overflowing(popover)).toEqual([]);
  expect(await insideWindow(app, popover)).toBe(true);
  await calm(app);
  await app.screenshot({ path: join(SHOTS, 'language-pseudo-context.png') });
  await app.keyboard.press('Escape');
  await expect(popover).toBeHidden();

  const reasoning = app.locator('.reasoning-control');
  await expect(reasoning).toContainText('⟦');
  expect(await overflowing(reasoning)).toEqual([]);
  await reasoning.click();
  const menu = app.getByRole('menu');
  await expect(menu.getByRole('menuitemradio')).toHaveCount(4);
  expect(await overflowing(menu)).toEqual([]);
  expect(await insideWindow(app, menu)).toBe(true);
  await app.screenshot({ path: join(SHOTS, 'language-pseudo-reasoning.png') });
  await app.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  const input = app.locator('textarea.composer-input');
  await input.pressSequentially('/team');
  await input.press('Enter');
  const form = app.getByRole('form', { name: /^\/completable-prompt/ });
  await expect(form).toBeVisible();
  await form.getByRole('button').last().click();
  await expect(form.getByRole('alert').first()).toContainText('department');
  await form.getByRole('combobox', { name: /department/ }).pressSequentially('E');
  await expect(form.getByRole('listbox').getByRole('option').first()).toBeVisible();
  expect(await overflowing(form)).toEqual([]);
  expect(await insideWindow(app, form)).toBe(true);
  await app.screenshot({ path: join(SHOTS, 'language-pseudo-prompt-form.png') });
});
