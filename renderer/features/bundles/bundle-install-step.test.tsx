// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleInspection, BundleReview } from '../../../shared/contract/bundles';
import { fail, ok } from '../../../shared/result';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { BundleInstallStep } from './bundle-install-step';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const inspection: BundleInspection = {
  stageId: 'a'.repeat(32),
  manifest: {
    manifestVersion: '0.3',
    name: 'preloading',
    version: '1.0.0',
    description: 'Sets LD_PRELOAD',
    author: { name: 'Someone' },
    serverType: 'binary',
    entryPoint: 'bin/server',
    tools: [],
    toolsGenerated: false,
    prompts: [],
    promptsGenerated: false,
    keywords: [],
  },
  fields: [],
  signature: { status: 'unsigned' },
  files: { count: 2, bytes: 100 },
  suggestedName: 'preloading',
  installed: [],
};
const review: BundleReview = {
  name: 'preloading',
  command: '/b/bin/server',
  args: [],
  env: { LD_PRELOAD: '/tmp/x.so' },
  secretEnvKeys: [],
  installPath: '/b',
  resolvedCommand: '/b/bin/server',
  runtime: { ok: true, message: "Runs the bundle's own program, bin/server" },
  warnings: [
    {
      kind: 'env',
      key: 'LD_PRELOAD',
      message: 'Sets LD_PRELOAD, which changes which libraries every program loads (the dynamic linker)',
      confirm: true,
    },
  ],
  problems: [],
};

describe('BundleInstallStep', () => {
  it('keeps Install disabled until the flagged variable is confirmed, then sends its key', async () => {
    const transport = createFakeTransport({
      'sandbox.support': () => ok({ available: false, platform: 'linux', reason: 'not here', warnings: [] }),
      'bundles.review': () => ok(review),
      'bundles.install': () => ok(serverState('preloading')),
    });
    renderWithBerth(
      <BundleInstallStep inspection={inspection} onCancel={() => undefined} onInstalled={() => undefined} />,
      {
        transport,
      },
    );
    const box = await screen.findByRole('checkbox', { name: /I understand that LD_PRELOAD lets this server run code/ });
    const install = screen.getByRole('button', { name: 'Install' }) as HTMLButtonElement;
    expect(install.disabled).toBe(true);
    fireEvent.click(box);
    expect(install.disabled).toBe(false);
    fireEvent.click(install);
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'bundles.install')).toBe(true));
    expect(transport.calls.find((call) => call.method === 'bundles.install')?.input).toMatchObject({
      name: 'preloading',
      confirmed: ['LD_PRELOAD'],
    });
  });

  it('words the bundle, its files and the toast in Japanese, the bundle’s own words as they are', async () => {
    await act(() => activateLocale('ja'));
    const transport = createFakeTransport({
      'sandbox.support': () => ok({ available: false, platform: 'linux', reason: 'not here', warnings: [] }),
      'bundles.review': () => ok({ ...review, warnings: [] }),
      'bundles.install': () => ok(serverState('preloading')),
    });
    const { store } = renderWithBerth(
      <BundleInstallStep
        inspection={{ ...inspection, installed: [{ server: 'preloading', version: '0.9.0' }] }}
        onCancel={() => undefined}
        onInstalled={() => undefined}
      />,
      { transport },
    );
    const about = screen.getByRole('region', { name: 'このバンドルについて' });
    expect(about.textContent).toContain('署名なし');
    expect(about.textContent).toContain('プログラム');
    expect(about.textContent).toContain('作成者: Someone');
    expect(about.textContent).toContain('2 個のファイル、100 B');
    expect(about.textContent).toContain(
      'インストール済み: 「preloading」（0.9.0）。同じサーバー名を使うと更新されます。',
    );
    expect(about.textContent).toContain('Sets LD_PRELOAD');
    expect(screen.getByText('このバンドルに設定項目はありません。')).toBeTruthy();
    const install = await screen.findByRole<HTMLButtonElement>('button', { name: 'インストール' });
    await waitFor(() => expect(install.disabled).toBe(false));
    fireEvent.click(install);
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('「preloading」をインストールしました'));
    expect(shownToasts(store).at(-1)?.message).toBe('preloading 1.0.0 を起動しています。');
  });

  it("words the review's problems and a refused install from their codes, and re-words them when the language changes", async () => {
    await activateLocale('ko');
    const withProblem: BundleReview = {
      ...review,
      problems: [
        {
          field: 'values.token',
          message: 'API token is required',
          hostMessage: { code: 'bundle-errors.setting-required', params: { title: 'API token' } },
        },
      ],
    };
    let reviewed = review;
    const transport = createFakeTransport({
      'sandbox.support': () => ok({ available: false, platform: 'linux', reason: 'not here', warnings: [] }),
      'bundles.review': () => ok(reviewed),
      // The host checks again: a risk the person has not confirmed there refuses the install.
      'bundles.install': () =>
        fail(
          'INVALID_INPUT',
          'Confirm first what this server asks for that runs code or opens its walls (LD_PRELOAD): tick "I understand" for it in the review, then install again',
          'confirmed',
          { code: 'bundle-errors.unconfirmed', params: { names: 'LD_PRELOAD', count: 1, action: 'install' } },
        ),
    });
    renderWithBerth(
      <BundleInstallStep inspection={inspection} onCancel={() => undefined} onInstalled={() => undefined} />,
      { transport },
    );
    fireEvent.click(await screen.findByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '설치' }));
    expect(
      await screen.findByText(/먼저 이 서버가 요청하는, 코드를 실행하거나 경계를 넘는 항목\(LD_PRELOAD\)을 확인하세요/),
    ).toBeTruthy();

    reviewed = withProblem;
    fireEvent.change(screen.getByDisplayValue('preloading'), { target: { value: 'preloading-2' } });
    expect(await screen.findByText('API token은(는) 필수입니다.')).toBeTruthy();

    await act(() => activateLocale('ja'));
    expect(screen.getByText('API tokenは必須です。')).toBeTruthy();
    expect(
      screen.getByText(
        /このサーバーが求める、コードを実行したり境界を越えたりする項目（LD_PRELOAD）を先に確認してください/,
      ),
    ).toBeTruthy();
  });
});
