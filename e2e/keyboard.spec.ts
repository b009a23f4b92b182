import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import { chatTest, everythingServerConfig, expect, toolNamed } from './support/berth';

// Keyboard only: in every main view, each control Tab reaches shows that it has the focus (an
// outline, a ring, a border or background that changes), so a person without a mouse can see
// where they are.

const MAX_STOPS = 150;

/**
 * Tabs through the page from the top and returns the controls whose look does not change with
 * the focus. The look is compared focused and blurred, on the control and its two nearest
 * ancestors (a text box may ring its frame), with transitions off so the change is immediate.
 */
async function controlsWithoutFocusRing(app: Page, { inDialog = false } = {}): Promise<string[]> {
  await app.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  // Start from the top of the window (a click on the brand, which takes no focus); a modal
  // dialog holds the focus itself, and a click outside it would close it.
  if (!inDialog) await app.locator('.brand').click();
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < MAX_STOPS; stop++) {
    await app.keyboard.press('Tab');
    const result = await app.evaluate(() => {
      const el = document.activeElement;
      if (!(el instanceof HTMLElement) || el === document.body) return undefined;
      const chain = [el, el.parentElement, el.parentElement?.parentElement].filter(
        (e): e is HTMLElement => e instanceof HTMLElement,
      );
      const look = () =>
        chain
          .map((e) => {
            const s = getComputedStyle(e);
            return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.borderColor, s.backgroundColor].join(
              '|',
            );
          })
          .join('/');
      const focused = look();
      el.blur();
      const blurred = look();
      el.focus();
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
      const where = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${name}"`;
      return { where, ringed: focused !== blurred };
    });
    if (result === undefined) continue;
    // Back at a control already seen: the whole page has been walked.
    if (seen.has(result.where)) break;
    seen.add(result.where);
    if (!result.ringed) missing.push(result.where);
  }
  return missing;
}

/** Opens a main view and waits until its lazy chunk is in and its data is read, so the Tab walk covers all of it. */
async function showView(app: Page, name: RegExp, root: string): Promise<void> {
  await app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();
  await expect(app.locator(`.view ${root}`)).toBeVisible();
  await expect(app.locator('.view .view-loading')).toHaveCount(0);
}

chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

chatTest('every control Tab reaches shows a focus ring, in every main view', async ({ app, fakeLlm }) => {
  chatTest.setTimeout(150_000);
  const missing: string[] = [];
  const servers = new ServersPage(app);
  await servers.show();
  await servers.expectStatus('everything', 'Ready');
  await servers.select('everything');
  missing.push(...(await controlsWithoutFocusRing(app)).map((c) => `Servers: ${c}`));

  fakeLlm.script([toolNamed('echo', { message: 'hello' }, 'Let me echo that.'), { text: 'Done: **hello**.' }]);
  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  await chat.send('Echo hello');
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  missing.push(...(await controlsWithoutFocusRing(app, { inDialog: true })).map((c) => `Consent dialog: ${c}`));
  await dialog.allow('Allow once');
  await chat.waitForIdle();
  missing.push(...(await controlsWithoutFocusRing(app)).map((c) => `Chat: ${c}`));

  const views = [
    ['Tasks', /^Tasks/, '.tasks-view'],
    ['Workspace roots', /^Workspace roots/, '.roots-view'],
    ['Logs', /^Logs/, '.logs-view'],
    ['Settings', /^Settings/, '.settings-view'],
  ] as const;
  for (const [label, name, root] of views) {
    await showView(app, name, root);
    missing.push(...(await controlsWithoutFocusRing(app)).map((c) => `${label}: ${c}`));
  }
  expect(missing, `Controls without a visible focus ring:\n${missing.join('\n')}`).toEqual([]);
});
