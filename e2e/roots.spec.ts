import { mkdir, mkdtemp, realpath, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingDialog } from './pages/pending-dialog';
import { RootsPage } from './pages/roots-page';
import { ServerDetail } from './pages/server-detail';
import { ServersPage } from './pages/servers-page';
import { DOCS_DIR, everythingServerConfig, expect, test } from './support/berth';

/** A temp folder with two sub-folders to pick from; removed after the test. */
async function workspace(): Promise<{ dir: string; alpha: string; beta: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-roots-e2e-'));
  const alpha = join(dir, 'alpha');
  const beta = join(dir, 'beta');
  await mkdir(join(alpha, 'src'), { recursive: true });
  await mkdir(beta);
  return { dir, alpha, beta, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

test.describe('workspace roots', () => {
  test('adds a folder with the folder browser, renames it, removes it with Undo, and flags it once deleted', async ({
    app,
  }) => {
    const ws = await workspace();
    try {
      const roots = new RootsPage(app);
      await roots.show();
      await expect(app.getByRole('heading', { name: 'No workspace roots yet' })).toBeVisible();
      await expect(app.getByText('Roots are the folders your servers may see.')).toBeVisible();

      // A path that is not there is refused in place, and the browser stays where it was.
      await roots.addFolder.click();
      const path = roots.browser.getByRole('textbox', { name: 'Folder path' });
      await path.fill(join(ws.dir, 'nope'));
      await path.press('Enter');
      await expect(roots.browser.getByRole('alert')).toBeVisible();
      await roots.browser.getByRole('button', { name: 'Cancel' }).click();

      // Keyboard only: arrows move through the sub-folders, Enter opens, Backspace goes up.
      await roots.openBrowserAt(ws.dir);
      await roots.folder('alpha').focus();
      await app.keyboard.press('ArrowDown');
      await expect(roots.folder('beta')).toBeFocused();
      await app.keyboard.press('ArrowUp');
      await app.keyboard.press('Enter');
      await expect(roots.folderList).toHaveAttribute('aria-label', `Folders in ${ws.alpha}`);
      await expect(roots.folder('src')).toBeFocused();
      await app.keyboard.press('Backspace');
      await expect(roots.folderList).toHaveAttribute('aria-label', `Folders in ${ws.dir}`);
      await roots.folder('alpha').click();
      await roots.browser.getByRole('button', { name: 'Use “alpha”' }).click();
      await expect(roots.browser).toBeHidden();

      await expect(roots.row('alpha')).toContainText(ws.alpha);
      await roots.rename('alpha', 'Project Alpha');
      await expect(roots.row('Project Alpha')).toContainText(ws.alpha);

      // Adding the same folder twice is refused with the host's reason, inline.
      await roots.openBrowserAt(ws.alpha);
      await roots.browser.getByRole('button', { name: 'Use “alpha”' }).click();
      await expect(roots.browser.getByRole('alert')).toBeVisible();
      await roots.browser.getByRole('button', { name: 'Cancel' }).click();

      await roots.remove('Project Alpha');
      await app.getByRole('button', { name: 'Undo', exact: true }).click();
      await expect(roots.row('Project Alpha')).toContainText(ws.alpha);

      await rm(ws.alpha, { recursive: true, force: true });
      await app.reload();
      await roots.show();
      const row = roots.row('Project Alpha');
      await expect(row).toHaveAttribute('data-missing', 'true');
      await expect(row.getByText('missing', { exact: true })).toBeVisible();
      await expect(row.getByTestId('root-problem')).toContainText('No server is given this root');
    } finally {
      await ws.cleanup();
    }
  });
});

test.describe('roots that need a second look', () => {
  test('sharing the home folder or / asks first, with a warning; nothing is added until the person says yes', async ({
    app,
  }, testInfo) => {
    const roots = new RootsPage(app);
    await roots.show();
    await roots.addFolder.click();
    await expect(roots.browser).toBeVisible();
    await roots.browser.getByRole('button', { name: 'Home folder' }).click();
    await roots.useShownFolder();
    const warning = roots.broadWarning;
    await expect(warning).toContainText('Share everything in this folder?');
    await expect(warning).toContainText(
      'is your home folder: every server you allow would see and could change all of your files in it',
    );
    await app.screenshot({ path: testInfo.outputPath('roots-home-warning.png') });
    await warning.getByRole('button', { name: 'Pick another folder' }).click();
    await expect(warning).toBeHidden();
    await roots.browser.getByRole('button', { name: 'Cancel' }).click();
    await expect(app.getByRole('heading', { name: 'No workspace roots yet' })).toBeVisible();

    await roots.openBrowserAt('/');
    await roots.useShownFolder();
    await expect(roots.broadWarning).toContainText('/ is the whole file system');
    await roots.broadWarning.getByRole('button', { name: 'Share it anyway' }).click();
    await expect(roots.browser).toBeHidden();
    await expect(roots.list.getByRole('listitem')).toHaveCount(1);
    await expect(roots.list.getByRole('listitem')).toHaveAccessibleDescription('/');
  });

  test('a folder picked through a link shows both paths, and is held back once the link leads elsewhere until the person shares the new folder', async ({
    app,
  }, testInfo) => {
    const ws = await workspace();
    try {
      const alpha = await realpath(ws.alpha);
      const beta = await realpath(ws.beta);
      const link = join(ws.dir, 'current');
      await symlink(ws.alpha, link);
      const roots = new RootsPage(app);
      await roots.show();
      await roots.openBrowserAt(link);
      await roots.useShownFolder();
      await expect(roots.browser).toBeHidden();
      const row = roots.row('current');
      await expect(row).toHaveAccessibleDescription(alpha);
      await expect(row.getByTestId('root-link')).toHaveText(`picked as ${link}, a link to this folder`);

      await unlink(link);
      await symlink(ws.beta, link);
      await app.reload();
      await roots.show();
      await expect(row).toHaveAttribute('data-missing', 'true');
      await expect(row.getByText('link changed', { exact: true })).toBeVisible();
      await expect(row.getByTestId('root-problem')).toContainText(
        `${link} now leads to ${beta}, not to ${alpha} that you shared. No server is given this root until you share the new folder.`,
      );
      await app.screenshot({ path: testInfo.outputPath('roots-link-changed.png') });
      await row.getByRole('button', { name: `Share ${beta} instead` }).click();
      await expect(row).not.toHaveAttribute('data-missing', 'true');
      await expect(row).toHaveAccessibleDescription(beta);
      await expect(row.getByTestId('root-link')).toContainText(link);
    } finally {
      await ws.cleanup();
    }
  });
});

test.describe('roots and a server', () => {
  test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  test('server-everything is asked about before it sees a folder, and each server sees only what it is given', async ({
    app,
  }) => {
    const ws = await workspace();
    try {
      await new ServersPage(app).expectStatus('everything', 'Ready');
      const roots = new RootsPage(app);
      await roots.show();

      await roots.openBrowserAt(ws.alpha);
      await roots.browser.getByRole('button', { name: 'Use “alpha”' }).click();
      await expect(roots.browser).toBeHidden();

      // The server is told its roots changed, asks for them, and the person is asked first.
      const dialog = new PendingDialog(app);
      await dialog.expectKind('root-consent');
      await expect(dialog.root).toContainText('everything wants to see this folder');
      const alphaBox = dialog.root.getByRole('checkbox', { name: /alpha/ });
      await expect(alphaBox).toBeChecked();
      await dialog.button('Allow all').click();
      await dialog.expectClosed();
      await expect(roots.matrixCell('everything', 'alpha')).toContainText('allowed');

      await roots.openBrowserAt(ws.beta);
      await roots.browser.getByRole('button', { name: 'Use “beta”' }).click();
      await dialog.expectKind('root-consent');
      await expect(dialog.root).toContainText('beta');
      await expect(dialog.root).not.toContainText(ws.alpha);
      await dialog.button('Deny all').click();
      await dialog.expectClosed();
      await expect(roots.matrixCell('everything', 'beta')).toContainText('denied');
      await expect(roots.matrixCell('everything', 'alpha')).toContainText('allowed');

      // Narrowing what the server sees: unchecking one root turns "all" into a list.
      await expect(roots.sees('everything', 'beta')).toBeChecked();
      // The box follows the host's answer, so click and wait rather than uncheck() (which checks at once).
      await roots.sees('everything', 'beta').click();
      await expect(roots.sees('everything', 'beta')).not.toBeChecked();
      await expect(roots.matrix.getByRole('switch', { name: /everything sees all roots/ })).not.toBeChecked();

      // The server's own Roots tab shows the same, and "Ask again" forgets the answer.
      await app
        .getByRole('list', { name: 'Your servers' })
        .getByRole('button', { name: /everything/ })
        .click();
      const detail = new ServerDetail(app, 'everything');
      await detail.root.getByRole('tab', { name: 'Roots' }).click();
      const panel = detail.root.getByTestId('server-roots');
      await expect(panel).toContainText('Sees 1 of 2 roots');
      await expect(panel.getByRole('listitem', { name: 'beta', exact: true })).toContainText('denied');
      await panel.getByRole('button', { name: 'Ask again about beta' }).click();
      await expect(panel.getByRole('listitem', { name: 'beta', exact: true })).toContainText('not asked yet');
    } finally {
      await ws.cleanup();
    }
  });
});

test.describe('roots picture', () => {
  test.use({
    initialConfig: { mcpServers: { everything: everythingServerConfig() } },
    viewport: { width: 1280, height: 800 },
  });

  test('docs/screenshots/roots.png', async ({ app }) => {
    // A fixed, readable location: the picture shows these paths.
    const base = join(tmpdir(), 'berth-screens', 'projects');
    await rm(base, { recursive: true, force: true });
    const folders = ['website', 'api-server', 'notes', 'old-prototype'];
    for (const name of folders) await mkdir(join(base, name, 'src'), { recursive: true });
    try {
      await new ServersPage(app).expectStatus('everything', 'Ready');
      const roots = new RootsPage(app);
      await roots.show();
      const dialog = new PendingDialog(app);
      const answers: Record<string, 'Allow all' | 'Deny all'> = {
        website: 'Allow all',
        'api-server': 'Allow all',
        notes: 'Deny all',
        'old-prototype': 'Allow all',
      };
      for (const name of folders) {
        await roots.openBrowserAt(join(base, name));
        await roots.browser.getByRole('button', { name: `Use “${name}”` }).click();
        await dialog.expectKind('root-consent');
        await dialog.button(answers[name]!).click();
        await dialog.expectClosed();
      }
      await roots.rename('website', 'Company website');
      await rm(join(base, 'old-prototype'), { recursive: true, force: true });
      await app.reload();
      await roots.show();
      await expect(roots.row('old-prototype')).toHaveAttribute('data-missing', 'true');
      await expect(roots.matrixCell('everything', 'notes')).toContainText('denied');
      await app.mouse.move(0, 790);
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'roots.png') });
    } finally {
      await rm(join(tmpdir(), 'berth-screens'), { recursive: true, force: true });
    }
  });
});
