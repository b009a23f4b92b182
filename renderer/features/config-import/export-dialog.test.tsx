// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fail, ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { ExportDialog } from './export-dialog';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { shownToasts } from '../../test-support/shown-toasts';
import { settingsError } from '../../../shared/domain/settings-errors';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const TEXT = '{\n  "mcpServers": {\n    "github": {\n      "command": "npx",\n      "args": []\n    }\n  }\n}\n';

function mount(handlers: FakeHandlers) {
  const { store } = renderWithBerth(<ExportDialog />, { handlers });
  store.getState().openInteropDialog('export');
  return store;
}

describe('export dialog', () => {
  it('shows the config and lists the secrets it left out', async () => {
    mount({
      'configImport.export': () =>
        ok({
          text: TEXT,
          fileName: 'claude_desktop_config.json',
          serverCount: 1,
          omittedSecrets: [{ server: 'github', key: 'GITHUB_TOKEN' }],
        }),
    });
    expect(((await screen.findByRole('textbox', { name: 'Exported config' })) as HTMLTextAreaElement).value).toBe(TEXT);
    expect(screen.getByRole('note').textContent).toContain('GITHUB_TOKEN of github');
    expect(screen.getByText('1 server')).toBeTruthy();
  });

  it('speaks Japanese when that is the language: count, left-out secrets and the file name to save', async () => {
    await act(() => activateLocale('ja'));
    mount({
      'configImport.export': () =>
        ok({
          text: TEXT,
          fileName: 'claude_desktop_config.json',
          serverCount: 3,
          omittedSecrets: [{ server: 'github', key: 'GITHUB_TOKEN' }],
        }),
    });
    expect(await screen.findByRole('textbox', { name: 'エクスポートした設定' })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Claude Desktop 用にエクスポート' })).toBeTruthy();
    expect(screen.getByRole('note').textContent).toContain('github の GITHUB_TOKEN');
    expect(screen.getByText('3 個のサーバー')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'claude_desktop_config.json を保存' })).toBeTruthy();
  });

  it('copies to the clipboard, and says so when it cannot', async () => {
    const writeText = vi
      .fn<(text: string) => Promise<void>>()
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new Error('Permission denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const store = mount({
      'configImport.export': () =>
        ok({ text: TEXT, fileName: 'claude_desktop_config.json', serverCount: 1, omittedSecrets: [] }),
    });
    const copy = await screen.findByRole<HTMLButtonElement>('button', { name: 'Copy' });
    // The button is there (disabled) before the export arrives: click once there is something to copy.
    await waitFor(() => expect(copy.disabled).toBe(false));
    fireEvent.click(copy);
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('Copied the config'));
    expect(writeText).toHaveBeenCalledWith(TEXT);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() =>
      expect(shownToasts(store).at(-1)).toMatchObject({
        tone: 'error',
        title: 'Could not copy',
        message: expect.stringMatching(/^Permission denied\./) as unknown,
      }),
    );
  });

  it('saves under the Claude Desktop file name', async () => {
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('claude_desktop_config.json');
      expect(this.href).toBe('blob:export');
    });
    mount({
      'configImport.export': () =>
        ok({ text: TEXT, fileName: 'claude_desktop_config.json', serverCount: 1, omittedSecrets: [] }),
    });
    const save = await screen.findByRole<HTMLButtonElement>('button', { name: 'Save claude_desktop_config.json' });
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    expect(click).toHaveBeenCalledTimes(1);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('shows why the export failed, with nothing to copy', async () => {
    mount({ 'configImport.export': () => fail('INTERNAL', 'boom') });
    expect((await screen.findByRole('alert')).textContent).toBe('Could not export: boom');
    expect((screen.getByRole('button', { name: 'Copy' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("words a coded failure in the person's language, again after a switch", async () => {
    const words = settingsError('settings-errors.save-failed', { file: 'settings.json', detail: 'EACCES' });
    mount({ 'configImport.export': () => fail('IO_ERROR', words.text, undefined, words.hostMessage) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not export: Could not save settings.json: EACCES');
    await act(() => activateLocale('ko'));
    expect(alert.textContent).toContain('settings.json을(를) 저장할 수 없습니다: EACCES');
    await act(() => activateLocale('en'));
  });
});
