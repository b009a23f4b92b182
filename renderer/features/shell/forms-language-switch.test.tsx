// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverError } from '../../../shared/domain/server-errors';
import { fail } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { createFakeTransport } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { RenameRow } from '../chat/conversation-row';
import { RemoveServerDialog } from '../servers/remove-server-dialog';
import { ProviderModels } from '../settings/provider-models';

beforeEach(() => activateLocale('en'));
afterEach(cleanup);

const alert = () => screen.getByRole('alert').textContent;

// Each form keeps what it says (a catalog id, a host failure), not the said string: a switch re-words it in place.
describe('a form error already shown when the person switches the language', () => {
  it("re-words the host's coded refusal in the remove-server dialog", async () => {
    const notReady = serverError('server-errors.not-ready', { name: 'files', status: 'starting' });
    const transport = createFakeTransport({
      'servers.remove': () => fail('NOT_READY', notReady.text, undefined, notReady.hostMessage),
    });
    renderWithBerth(<RemoveServerDialog name="files" open onOpenChange={() => {}} />, { transport });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove files' }));
    const english = 'Server “files” is not ready (starting). Try again once it is ready.';
    expect(await screen.findByText(english)).toBeTruthy();

    await act(() => activateLocale('ja'));
    expect(
      await screen.findByText(
        'サーバー「files」はまだ準備ができていません（起動中）。準備ができてからもう一度お試しください。',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(english)).toBeNull();
  });

  it("re-words the rename row's own check", async () => {
    const conversation = { id: 'c1', title: 'Trip plan', createdAt: 1, updatedAt: 1, model: 'm', messageCount: 2 };
    renderWithBerth(<RenameRow conversation={conversation} onDone={() => {}} />);
    const input = await screen.findByLabelText('Conversation title');
    fireEvent.change(input, { target: { value: '  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(alert()).toBe('Give the conversation a title');

    await act(() => activateLocale('ko'));
    expect(alert()).toBe('대화 제목을 입력하세요');
  });

  it("re-words a provider's model list note, its value kept", async () => {
    renderWithBerth(
      <ProviderModels
        providerId={undefined}
        providerLabel="Ollama"
        models={[{ id: 'llama3.1:8b', supportsTools: true, takesImages: false }]}
        onChange={() => {}}
      />,
    );
    fireEvent.change(await screen.findByLabelText('Add a model by id'), { target: { value: 'llama3.1:8b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add model' }));
    expect(alert()).toBe("'llama3.1:8b' is already in the list.");

    await act(() => activateLocale('ja'));
    expect(alert()).toBe('「llama3.1:8b」はすでに一覧にあります。');
  });
});
