// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok, type Result } from '../../../shared/result';
import { registryError } from '../../../shared/domain/registry-errors';
import { RegistryOrigin } from './registry-origin';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const from = {
  url: 'https://registry.example.com',
  name: 'io.github.x/weather',
  version: '1.0.0',
  option: 0,
  values: {},
};

function mount(latest: string | undefined, update?: () => Result<{ server: string; version: string }>) {
  const handlers: FakeHandlers = {
    'registry.updates': () =>
      ok({
        updates:
          latest === undefined
            ? []
            : [{ server: 'weather', registry: from.url, name: from.name, installed: '1.0.0', latest }],
        problems: [],
      }),
    'registry.update': update ?? (() => ok({ server: 'weather', version: latest ?? '' })),
  };
  const { transport, store } = renderWithBerth(<RegistryOrigin server="weather" from={from} />, { handlers });
  return { transport, store };
}

describe('RegistryOrigin', () => {
  it('names the entry and version, and offers the newer one', async () => {
    const { transport, store } = mount('1.1.0');
    expect(screen.getByText('io.github.x/weather')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Update to 1.1.0' }));
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'registry.update')).toBe(true));
    expect(transport.calls.find((call) => call.method === 'registry.update')?.input).toEqual({ server: 'weather' });
    await waitFor(() => expect(shownToasts(store).at(-1)?.title).toBe('Updated “weather” to 1.1.0'));
  });

  it('says nothing about updates when the installed version is the latest', async () => {
    const { transport } = mount(undefined);
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'registry.updates')).toBe(true));
    expect(screen.queryByText(/Update available/)).toBeNull();
  });

  it("keeps a refused update's code on its toast, for the toast to word", async () => {
    const words = registryError('registry-errors.update-asks-more', {
      version: '1.1.0',
      name: from.name,
      detail: 'a new secret',
    });
    const { store } = mount('1.1.0', () => fail('CONFLICT', words.text, undefined, words.hostMessage));
    fireEvent.click(await screen.findByRole('button', { name: 'Update to 1.1.0' }));
    await waitFor(() =>
      expect(store.getState().toasts.at(-1)?.message).toEqual({ hostMessage: words.hostMessage, fallback: words.text }),
    );
  });
});
