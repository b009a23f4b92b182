import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { chatTest as test, DOCS_DIR, everythingServerConfig, expect, toolNamed } from './support/berth';

// A consent dialog walked with the keyboard only: it opens on Deny, Tab stays inside it in reading
// order, Enter in the reason field denies with that reason, and the focus goes back to the message box.

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

/** What the focused element is called, and whether it sits in the open dialog. */
async function focused(app: Page): Promise<{ name: string; inDialog: boolean }> {
  return app.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const labelled = el?.getAttribute('aria-labelledby');
    const name =
      el?.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : undefined) ??
      (el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : undefined) ??
      el?.textContent ??
      '';
    return { name: name.trim(), inDialog: el?.closest('[role="dialog"]') != null };
  });
}

test('a consent dialog from the keyboard: Deny first, Tab inside it, a reason sent by Enter, focus back', async ({
  app,
  fakeLlm,
}) => {
  fakeLlm.script([toolNamed('echo', { message: 'secret' }), { text: 'Understood: {{lastToolResult}}' }]);
  const chat = new ChatPage(app);
  await chat.waitForServer('everything');
  await chat.show();
  await chat.newConversation();
  await chat.input.fill('Echo the secret');
  await chat.input.press('Enter');

  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  const deny = dialog.button('Deny');
  // On its safest button: not the dialog itself, not an Allow.
  await expect(deny).toBeFocused();

  await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
  await app.mouse.move(0, 790);
  for (const scheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: scheme });
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `consent-keyboard-${scheme}.png`) });
  }
  await app.emulateMedia({ colorScheme: 'light' });

  // Tab goes round the dialog and never leaves it: the answers, then the header, then the body.
  const stops: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    await app.keyboard.press('Tab');
    const now = await focused(app);
    expect(now.inDialog, `Tab ${i + 1} left the dialog for “${now.name}”`).toBe(true);
    if (now.name === 'Deny') break;
    stops.push(now.name);
  }
  const at = (pattern: RegExp) => stops.findIndex((name) => pattern.test(name));
  expect(stops[0]).toBe('Always allow this server');
  expect(at(/^Allow once$/)).toBeGreaterThan(at(/^Allow for this conversation$/));
  expect(at(/^Later$/)).toBeGreaterThan(at(/^Allow once$/));
  expect(at(/^Close and answer later$/)).toBeGreaterThan(at(/^Later$/));
  expect(at(/^Arguments/)).toBeGreaterThan(at(/^Close and answer later$/));
  // The reason is the last field before the answers: Shift+Tab from Deny reaches it.
  expect(stops.at(-1)).toMatch(/^Reason if you deny/);

  await app.keyboard.press('Shift+Tab');
  const reason = dialog.root.getByLabel(/Reason if you deny/);
  await expect(reason).toBeFocused();
  await app.keyboard.type('not with that data');
  await app.keyboard.press('Enter');
  await dialog.expectClosed();

  // Back where the person was typing, and the model was told why.
  await expect(chat.input).toBeFocused();
  await expect(chat.toolCard('echo')).toContainText('Denied');
  await fakeLlm.waitForRequests(2);
  expect(JSON.stringify(fakeLlm.requests[1]?.body?.messages.at(-1)?.content ?? '')).toContain('not with that data');
  await expect(chat.assistantMessages().last()).toContainText('not with that data');
});

test('Escape puts the request aside and the focus back; the card’s Review opens it again on Deny', async ({
  app,
  fakeLlm,
}) => {
  fakeLlm.script([toolNamed('echo', { message: 'later' }), { text: 'The tool said: {{lastToolResult}}' }]);
  const chat = new ChatPage(app);
  await chat.waitForServer('everything');
  await chat.show();
  await chat.newConversation();
  await chat.send('Echo later');
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await expect(dialog.button('Deny')).toBeFocused();
  await app.keyboard.press('Escape');
  await dialog.expectClosed();
  await expect(chat.input).toBeFocused();

  // Back to the card's Review from the message box, by keyboard; Escape there returns to it.
  const review = chat.toolCard('echo').getByRole('button', { name: 'Review', exact: true });
  let steps = 0;
  while (!(await review.evaluate((el) => el === document.activeElement)) && steps < 30) {
    await app.keyboard.press('Shift+Tab');
    steps += 1;
  }
  await expect(review).toBeFocused();
  await app.keyboard.press('Enter');
  await dialog.expectKind('tool-call');
  await expect(dialog.button('Deny')).toBeFocused();
  await app.keyboard.press('Escape');
  await dialog.expectClosed();
  await expect(review).toBeFocused();
});
