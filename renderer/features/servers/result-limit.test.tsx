// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { ResultLimitFacts } from './result-limit';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { settingsError } from '../../../shared/domain/settings-errors';
import { activateLocale } from '../../i18n/i18n';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

function mount(handlers: FakeHandlers) {
  const { transport } = renderWithBerth(
    <dl>
      <ResultLimitFacts server="files" />
    </dl>,
    { handlers },
  );
  return { transport };
}

const line = () => screen.getByTestId('result-limit').querySelector('.sampling-limit-line')?.textContent;

describe("the Overview's result limit", () => {
  it('says Berth’s default until one is set, saves a new one, follows other windows and goes back to the default', async () => {
    const { transport } = mount({
      'servers.resultLimits': () => ok([{ server: 'other', limitTokens: 900 }, { server: 'files' }]),
      'servers.setResultLimit': ({ server, limitTokens }) =>
        ok({ server, ...(limitTokens === null ? {} : { limitTokens }) }),
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Change result limit' }).hasAttribute('disabled')).toBe(false),
    );
    expect(line()).toBe(
      'The model gets at most 10,000 tokens of one tool result, or a tenth of a smaller model’s context (Berth’s default)',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Change result limit' }));
    const field = screen.getByRole('textbox', { name: 'Tokens of one result the model gets' });
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Result limit of files' }));
    expect(await screen.findByText('Enter a whole number of tokens from 500 to 500,000.')).toBeTruthy();
    expect(transport.calls.some((c) => c.method === 'servers.setResultLimit')).toBe(false);

    fireEvent.change(field, { target: { value: '2,500' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Result limit of files' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'servers.setResultLimit').map((c) => c.input)).toEqual([
      { server: 'files', limitTokens: 2_500 },
    ]);
    act(() => transport.emit('servers.resultLimitChanged', { server: 'files', limitTokens: 2_500 }));
    expect(line()).toBe('The model gets at most 2,500 tokens of one tool result');
    // Another server's change is not this one's.
    act(() => transport.emit('servers.resultLimitChanged', { server: 'other', limitTokens: 700 }));
    expect(line()).toBe('The model gets at most 2,500 tokens of one tool result');

    fireEvent.click(screen.getByRole('button', { name: 'Change result limit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use Berth’s default' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(transport.calls.filter((c) => c.method === 'servers.setResultLimit').at(-1)?.input).toEqual({
      server: 'files',
      limitTokens: null,
    });
  });

  const diskFull = settingsError('settings-errors.save-failed', { file: 'settings.json', detail: 'disk full' });

  it('shows the host’s refusal in the form', async () => {
    mount({
      'servers.resultLimits': () => ok([{ server: 'files' }]),
      'servers.setResultLimit': () => fail('IO_ERROR', diskFull.text, undefined, diskFull.hostMessage),
    });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Change result limit' }).hasAttribute('disabled')).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Change result limit' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Tokens of one result the model gets' }), {
      target: { value: '3000' },
    });
    fireEvent.submit(screen.getByRole('form', { name: 'Result limit of files' }));
    expect(await screen.findByText('Could not save settings.json: disk full')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Result limit of files' })).toBeTruthy();
    // Kept with its code: a language switch words it again.
    await act(() => activateLocale('ja'));
    expect(screen.getByText('settings.json を保存できませんでした: disk full')).toBeTruthy();
  });
});
