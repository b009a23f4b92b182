// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingUsage } from '../../../shared/domain/sampling-limits';
import { fail, ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { SamplingLimitsFacts } from './sampling-limits';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';
import { settingsError } from '../../../shared/domain/settings-errors';
import { activateLocale } from '../../i18n/i18n';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const diskFull = settingsError('settings-errors.save-failed', { file: 'settings.json', detail: 'disk full' });

const spent: SamplingUsage = {
  server: 'everything',
  limits: { maxTokens: 1_000, sessionBudget: 2_500 },
  custom: true,
  used: 2_700,
  inFlight: 0,
  requests: 2,
  refused: 1,
};

function mount(handlers: FakeHandlers = {}) {
  const { transport, store } = renderWithBerth(
    <dl>
      <SamplingLimitsFacts server="everything" />
    </dl>,
    { handlers },
  );
  return { transport, store };
}

describe("the Overview's sampling limits", () => {
  it("shows Berth's defaults and nothing spent for a server the host has not mentioned, and says what the session is", () => {
    mount();
    const facts = screen.getByTestId('sampling-limits');
    expect(facts.textContent).toContain('At most 4,096 max tokens per request (Berth’s default)');
    expect(screen.getByTestId('sampling-budget').textContent).toBe('0 of 100,000 budget tokens used this session');
    expect(facts.textContent).toContain('Counted since Berth started; restarting the server does not reset it.');
    expect((screen.getByRole('button', { name: 'Reset budget' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a spent budget as refused, and resets it on request', async () => {
    const { store, transport } = mount({
      'sampling.resetUsage': () => ok({ ...spent, used: 0, requests: 0, refused: 0 }),
    });
    store.getState().applySamplingUsage(spent);
    await screen.findByText('budget spent: requests are refused');
    expect(screen.getByTestId('sampling-budget').textContent).toContain(
      '2,700 of 2,500 budget tokens used this session',
    );
    expect(
      screen.getByRole('meter', { name: 'Sampling budget used by everything' }).getAttribute('aria-valuetext'),
    ).toBe('2,700 of 2,500 tokens');
    fireEvent.click(screen.getByRole('button', { name: 'Reset budget' }));
    await waitFor(() =>
      expect(screen.getByTestId('sampling-budget').textContent).toBe('0 of 2,500 budget tokens used this session'),
    );
    expect(transport.calls.filter((c) => c.method === 'sampling.resetUsage').map((c) => c.input)).toEqual([
      { server: 'everything' },
    ]);
  });

  it('refuses bad values in the form with a clear message, and saves good ones', async () => {
    let refuse = true;
    const { transport } = mount({
      'sampling.setLimits': ({ server, limits }) =>
        refuse
          ? fail('IO_ERROR', diskFull.text, undefined, diskFull.hostMessage)
          : ok({ ...spent, server, limits: limits ?? spent.limits, used: 0 }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Change limits' }));
    const form = screen.getByRole('form', { name: 'Sampling limits of everything' });
    const maxTokens = within(form).getByLabelText('Max tokens per request');
    const budget = within(form).getByLabelText('Token budget per Berth session');
    fireEvent.change(maxTokens, { target: { value: '0' } });
    fireEvent.change(budget, { target: { value: 'lots' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect(
      within(form)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(['The max tokens per request must be at least 1 token', 'The session budget must be a number of tokens']);
    expect(transport.calls.some((c) => c.method === 'sampling.setLimits')).toBe(false);
    // The field's problems are kept with their codes: a language switch words them again.
    await act(() => activateLocale('ja'));
    expect(
      within(form)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual([
      '1 リクエストあたりの max tokens は 1 トークン以上にしてください',
      'セッション予算はトークン数で指定してください',
    ]);
    await act(() => activateLocale('en'));

    fireEvent.change(maxTokens, { target: { value: '1,000' } });
    fireEvent.change(budget, { target: { value: '2500' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save limits' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Could not save settings.json: disk full');
    // The refusal is kept with its code: a language switch words it again.
    await act(() => activateLocale('zh-CN'));
    expect(within(form).getByRole('alert').textContent).toBe('无法保存 settings.json：disk full');
    await act(() => activateLocale('en'));
    refuse = false;
    fireEvent.click(within(form).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(screen.getByTestId('sampling-limits').textContent).toContain('At most 1,000 max tokens per request');
    expect(transport.calls.filter((c) => c.method === 'sampling.setLimits').at(-1)?.input).toEqual({
      server: 'everything',
      limits: { maxTokens: 1_000, sessionBudget: 2_500 },
    });
  });

  it('tells the person when a request was refused for lack of budget, with a way to the server', () => {
    const { store } = mount();
    store
      .getState()
      .applyBudgetRefused({ server: 'everything', message: 'Sampling budget exhausted: …', usage: spent });
    const toast = shownToasts(store).at(-1);
    expect(toast).toMatchObject({
      tone: 'error',
      title: '“everything” has used up its sampling budget',
      message:
        'Berth refused its request for a completion: it has used 2,700 of 2,500 tokens this Berth session. Raise or reset the budget in the server’s Overview.',
      action: { label: 'Open server' },
    });
    toast?.action?.run();
    expect(store.getState().selectedServer).toBe('everything');
  });
});
