// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../../shared/result';
import { serverError } from '../../../shared/domain/server-errors';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { Toasts } from './toasts';
import { verbatim } from '../../i18n/words';

afterEach(cleanup);

const words = serverError('server-errors.timeout', { name: 'files', subject: 'tools/call', seconds: 30 });
const shownMessage = (): string | null | undefined => document.querySelector('.toast-message')?.textContent;
const timedOut = fail('TIMEOUT', words.text, undefined, words.hostMessage);

describe('a failed call shown as a toast', () => {
  it("words the host's coded failure in the person's language, the facts in place, and again on a language switch", async () => {
    await activateLocale('zh-CN');
    const { store } = renderWithBerth(<Toasts />);
    act(() => store.getState().toastFailure(verbatim('无法调用工具'), timedOut));
    await waitFor(() => expect(shownMessage()).toBe('服务器“files”上的 tools/call 在 30 秒内没有响应。'));
    expect(screen.getByText('tools/call').tagName).toBe('CODE');
    await act(() => activateLocale('ko'));
    await waitFor(() => expect(shownMessage()).toBe('서버 “files”의 tools/call이(가) 30초 안에 응답하지 않았습니다.'));
  });

  it("shows the host's English for a failure without a code, or with one the catalog lacks", async () => {
    await activateLocale('zh-CN');
    const { store } = renderWithBerth(<Toasts />);
    act(() => {
      store.getState().toastFailure(verbatim('无法启动'), fail('NOT_FOUND', 'no such thing'));
      store
        .getState()
        .toastFailure(
          verbatim('无法启动'),
          fail('NOT_FOUND', 'from a newer host', undefined, { code: 'server-errors.newer' }),
        );
    });
    expect(await screen.findByText('no such thing')).toBeTruthy();
    expect(screen.getByText('from a newer host')).toBeTruthy();
  });
});

describe('the notifications region', () => {
  it('is named in the person’s language, with the key that jumps to it (not Radix’s English default)', async () => {
    await activateLocale('ko');
    renderWithBerth(<Toasts />);
    expect(screen.getByRole('region', { name: '알림(F8)' })).toBeTruthy();
  });

  it('keeps the English name in English', async () => {
    await activateLocale('en');
    renderWithBerth(<Toasts />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy();
  });
});
