// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverError } from '../../../shared/domain/server-errors';
import { fail } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { createFakeTransport } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ServerFormDialog } from '../servers/server-form-dialog';
import { Toasts } from './toasts';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const timedOut = serverError('server-errors.timeout', { name: 'files', subject: 'tools/list', seconds: 30 });

describe('words already on screen when the person switches the language', () => {
  it('re-words a toast from the store and a form error in the new language, without a new event', async () => {
    const transport = createFakeTransport({
      'servers.list': () => fail('TIMEOUT', timedOut.text, undefined, timedOut.hostMessage),
    });
    const { store } = renderWithBerth(
      <>
        <ServerFormDialog />
        <Toasts />
      </>,
      { transport },
    );
    act(() => store.getState().openServerForm({ mode: 'add' }));
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'files' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.click(screen.getByRole('button', { name: 'Advanced: timeouts and restarts' }));
    fireEvent.change(await screen.findByLabelText('Give up after'), { target: { value: 'two' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add server' }));
    expect(await screen.findByText('Enter a whole number')).toBeTruthy();
    await act(() => store.getState().loadServers());
    const toast = () => document.querySelector('.toast');
    await waitFor(() =>
      expect(toast()?.querySelector('.toast-title')?.textContent).toBe('Could not load the server list'),
    );
    expect(toast()?.querySelector('.toast-message')?.textContent).toBe(
      'tools/list on server “files” did not answer within 30 s.',
    );

    await act(() => activateLocale('ko'));
    expect(await screen.findByText('정수를 입력하세요')).toBeTruthy();
    expect(screen.queryByText('Enter a whole number')).toBeNull();
    expect(toast()?.querySelector('.toast-title')?.textContent).toBe('서버 목록을 불러올 수 없습니다');
    expect(toast()?.querySelector('.toast-message')?.textContent).toBe(
      '서버 “files”의 tools/list이(가) 30초 안에 응답하지 않았습니다.',
    );
  });
});
