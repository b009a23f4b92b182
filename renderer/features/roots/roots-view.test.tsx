// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../shared/domain';
import { fail, ok, type Result } from '../../../shared/result';
import type { FolderListing } from '../../../shared/contract/roots';
import { createFakeTransport } from '../../test-support/fake-transport';
import { RootsView } from './roots-view';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { shownToasts } from '../../test-support/shown-toasts';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(cleanup);

function mount(shell: AppInfo['shell'], picked: string | null) {
  const transport = createFakeTransport({
    'roots.list': () => ok({ roots: [], exposure: {}, consent: {} }),
    'roots.pickFolder': () => ok({ path: picked }),
    'roots.add': ({ path }) => ok({ id: 'r1', path, name: 'code', addedAt: 1, missing: false }),
    'roots.browse': () =>
      ok({
        path: '/home/ada',
        home: '/home/ada',
        parent: '/home',
        entries: [{ name: 'code', path: '/home/ada/code', readable: true }],
        truncated: false,
      }),
  });
  const { store } = renderWithBerth(<RootsView />, {
    transport,
    prepare: (store) => {
      store.setState({
        appInfo: { version: '0', shell, platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' },
      });
    },
  });
  return { store, transport, methods: () => transport.calls.map((c) => c.method) };
}

describe('roots view', () => {
  it('explains roots when there are none', async () => {
    mount('browser', null);
    expect(await screen.findByText('No workspace roots yet')).toBeTruthy();
    expect(screen.getByText(/Roots are the folders your servers may see/)).toBeTruthy();
  });

  it('uses the system folder dialog on the desktop and adds what was picked', async () => {
    const { store, methods } = mount('electron', '/home/ada/code');
    fireEvent.click(await screen.findByRole('button', { name: 'Add folder' }));
    await waitFor(() => expect(methods()).toContain('roots.add'));
    expect(methods()).not.toContain('roots.browse');
    expect(shownToasts(store).at(-1)?.title).toBe('Added “code”');
  });

  it('adds nothing when the desktop dialog is cancelled', async () => {
    const { methods } = mount('electron', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Add folder' }));
    await waitFor(() => expect(methods()).toContain('roots.pickFolder'));
    expect(methods()).not.toContain('roots.add');
  });

  it('opens the folder browser in browser mode', async () => {
    const { methods } = mount('browser', null);
    fireEvent.click(await screen.findByRole('button', { name: 'Add folder' }));
    expect(await screen.findByRole('button', { name: 'code' })).toBeTruthy();
    expect(methods()).toContain('roots.browse');
    expect(methods()).not.toContain('roots.pickFolder');
  });

  it('keeps what the person typed, and its error, when the opening listing arrives late', async () => {
    let openHome: (value: Result<FolderListing>) => void = () => undefined;
    const { transport } = mount('browser', null);
    transport.handlers['roots.browse'] = ({ path }) =>
      path === undefined
        ? new Promise<Result<FolderListing>>((resolve) => (openHome = resolve))
        : fail('NOT_FOUND', `folder '${path}' does not exist`);
    fireEvent.click(await screen.findByRole('button', { name: 'Add folder' }));
    const field = await screen.findByLabelText<HTMLInputElement>('Folder path');
    fireEvent.change(field, { target: { value: '/nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect((await screen.findByRole('alert')).textContent).toContain("folder '/nope' does not exist");
    // The home listing asked for on opening comes back only now: it must not undo the person's request.
    openHome(ok({ path: '/home/ada', home: '/home/ada', parent: '/home', entries: [], truncated: false }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(field.value).toBe('/nope');
    expect(screen.getByRole('alert').textContent).toContain("folder '/nope' does not exist");
  });

  it("words the host's coded refusals in the person's language, the folder as written, and its English when the catalog lacks the code", async () => {
    await activateLocale('zh-CN');
    const { transport } = mount('browser', null);
    transport.handlers['roots.browse'] = ({ path }) =>
      path === undefined
        ? ok({ path: '/home/ada', home: '/home/ada', parent: '/home', entries: [], truncated: false })
        : fail('NOT_FOUND', `There is no folder at ${path}`, 'path', {
            code: 'root-errors.browse-missing',
            params: { path: path ?? '' },
          });
    transport.handlers['roots.add'] = ({ path }) =>
      fail('NOT_FOUND', `Cannot add this root: the folder ${path} does not exist`, 'path', {
        code: path === '/新项目' ? 'root-errors.cannot-add' : 'root-errors.from-a-newer-host',
        params: { path, problem: 'missing', detail: '' },
      });
    fireEvent.click(await screen.findByRole('button', { name: '添加文件夹' }));
    const field = await screen.findByLabelText<HTMLInputElement>('文件夹路径');
    fireEvent.change(field, { target: { value: '/新项目' } });
    fireEvent.click(screen.getByRole('button', { name: '前往' }));
    expect((await screen.findByRole('alert')).textContent).toBe('/新项目 处没有文件夹。');
    const use = (): HTMLElement => screen.getByRole('button', { name: /^使用/ });
    fireEvent.click(use());
    expect(await screen.findByText('无法添加此根目录：文件夹 /新项目 不存在。')).toBeTruthy();
    fireEvent.change(field, { target: { value: '/other' } });
    fireEvent.click(use());
    expect(await screen.findByText('Cannot add this root: the folder /other does not exist')).toBeTruthy();
  });

  it("words the roots page in the person's language, the missing folders counted by the catalog", async () => {
    await activateLocale('zh-CN');
    const { store, transport } = mount('browser', null);
    transport.handlers['roots.list'] = () =>
      ok({
        roots: [
          { id: 'r1', path: '/home/ada/code', name: 'code', addedAt: 1, missing: false },
          { id: 'r2', path: '/home/ada/gone', name: 'gone', addedAt: 2, missing: true },
        ],
        exposure: {},
        consent: {},
      });
    // The view listed the roots on opening; list again now that there are some.
    await act(() => store.getState().loadRoots());
    expect(await screen.findByRole('heading', { name: '服务器可访问的文件夹' })).toBeTruthy();
    expect(screen.getByText(/有 1 个文件夹已不存在，不会提供给任何服务器。/)).toBeTruthy();
    expect(screen.getByRole('list', { name: '工作区根目录' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '重命名 code' })).toBeTruthy();
    expect(screen.getByText('还没有服务器。请先添加一个，然后选择它可以访问的根目录。')).toBeTruthy();
  });

  it("words a missing root's problem and the broad-folder warning from their codes, and a language switch re-words them", async () => {
    await activateLocale('ko');
    const { store, transport } = mount('browser', null);
    transport.handlers['roots.list'] = () =>
      ok({
        roots: [
          {
            id: 'r2',
            path: '/home/ada/gone',
            name: 'gone',
            addedAt: 2,
            missing: true,
            problem: 'the folder /home/ada/gone does not exist',
            problemMessage: {
              code: 'root-errors.folder-unusable',
              params: { path: '/home/ada/gone', problem: 'missing', detail: '' },
            },
          },
        ],
        exposure: {},
        consent: {},
      });
    await act(() => store.getState().loadRoots());
    expect((await screen.findByTestId('root-problem')).textContent).toBe(
      '폴더 /home/ada/gone이(가) 없습니다. 폴더가 다시 생길 때까지 이 루트는 어떤 서버에도 제공되지 않습니다.',
    );

    const english =
      "/home/ada is your home folder: every server you allow would see and could change all of your files in it, not just one project's. Share it only if you mean to.";
    transport.handlers['roots.add'] = () =>
      fail('INVALID_INPUT', english, 'confirmBroad', {
        code: 'root-errors.broad-folder',
        params: { path: '/home/ada', scope: 'home', home: '/home/ada' },
      });
    fireEvent.click(screen.getByRole('button', { name: '폴더 추가' }));
    fireEvent.click(await screen.findByRole('button', { name: '“ada” 사용' }));
    const warning = await screen.findByTestId('broad-folder-warning');
    expect(warning.textContent).toContain('/home/ada은(는) 홈 폴더입니다.');
    expect(warning.textContent).not.toContain('home folder');

    // The warning and the row keep the host's failure, not its words: switching the language re-words both.
    await act(() => activateLocale('ja'));
    expect(screen.getByTestId('broad-folder-warning').textContent).toContain('/home/ada はホームフォルダーです。');
    expect(screen.getByTestId('root-problem').textContent).toContain('フォルダー /home/ada/gone が存在しません。');
  });
});
