// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView as Settings } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { SettingsView } from './settings-view';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
});
afterEach(cleanup);

const SETTINGS: Settings = {
  apiKey: { source: 'none' },
  models: [
    { id: 'a', label: 'Model A' },
    { id: 'b', label: 'Model B' },
  ],
  defaultModel: 'a',
};

function mount() {
  const transport = createFakeTransport({
    'settings.setApiKey': ({ apiKey }) =>
      apiKey.length < 8
        ? { ok: false, code: 'INVALID_INPUT', message: 'That is too short to be an API key' }
        : ok({ ...SETTINGS, apiKey: { source: 'stored' as const, hint: '…2345' } }),
    'consent.revoke': ({ id }) => ok({ revoked: id }),
    'sampling.setPolicy': ({ server, policy }) => ok({ [server]: policy }),
    'sampling.models': () => ok({ models: [], defaultModel: 'a' }),
    'consent.audit': () =>
      ok({
        entries: [
          {
            time: '2026-05-01T10:00:00.000Z',
            server: 'files',
            tool: 'write',
            argumentsDigest: 'sha256:0123456789abcdef0123',
            decision: 'deny' as const,
            decidedBy: 'person' as const,
            edited: false,
          },
          {
            time: '2026-05-01T09:00:00.000Z',
            server: 'files',
            tool: 'read',
            argumentsDigest: 'sha256:fedcba9876543210fedc',
            decision: 'always-tool' as const,
            decidedBy: 'policy:p1' as const,
            edited: true,
          },
        ],
        unreadableLines: 1,
      }),
  });
  const { store } = renderWithBerth(<SettingsView />, {
    transport,
    prepare: (store) => {
      store.getState().applySettings(SETTINGS);
      store.getState().applyServersSnapshot([serverState('files')]);
      store.getState().applyConsentPolicies([{ id: 'p1', scope: 'tool', server: 'files', tool: 'read', createdAt: 1 }]);
    },
  });
  return { transport, store };
}

describe('<SettingsView>', () => {
  it('saves an API key, showing a refusal under the field', async () => {
    const { store } = mount();
    const input = screen.getByLabelText('API key') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('That is too short to be an API key')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'sk-ant-12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(store.getState().settings?.apiKey.source).toBe('stored'));
    expect(screen.getByTestId('api-key-hint').textContent).toBe('…2345');
    expect(input.value).toBe('');
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  it('revokes a permission only after confirming', async () => {
    const { transport } = mount();
    const table = screen.getByRole('table', { name: 'Tool permissions' });
    fireEvent.click(within(table).getByRole('button', { name: /Revoke permission for “read” of “files”/ }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(transport.calls.some((c) => c.method === 'consent.revoke')).toBe(false);
    fireEvent.click(within(table).getByRole('button', { name: /Revoke permission/ }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No stored permissions: every tool call asks first.')).toBeTruthy();
    expect(transport.calls.find((c) => c.method === 'consent.revoke')?.input).toEqual({ id: 'p1' });
  });

  it('lists one sampling policy row per server, and says so when there is no server', () => {
    const { store } = mount();
    const list = screen.getByRole('list', { name: 'Sampling policy per server' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.dataset.server),
    ).toEqual(['files']);
    expect(screen.queryByText('No servers yet.')).toBeNull();

    act(() => store.getState().applyServersSnapshot([]));
    expect(screen.queryByRole('list', { name: 'Sampling policy per server' })).toBeNull();
    expect(screen.getByText('No servers yet.')).toBeTruthy();
  });

  it('sets a sampling policy per server and lists the audit log newest first', async () => {
    const { transport } = mount();
    const group = screen.getByRole('radiogroup', { name: 'Sampling policy for files' });
    fireEvent.click(within(group).getByRole('radio', { name: 'Never' }));
    await waitFor(() =>
      expect(transport.calls.find((c) => c.method === 'sampling.setPolicy')?.input).toEqual({
        server: 'files',
        policy: 'never',
      }),
    );
    const audit = await screen.findByRole('table', { name: 'Audit log' });
    const rows = within(audit).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('denied');
    expect(rows[0]!.textContent).toContain('you');
    expect(rows[0]!.textContent).toContain('sha256:0123456789ab');
    expect(rows[1]!.textContent).toContain('stored permission');
    expect(rows[1]!.textContent).toContain('edited');
    expect(screen.getByText('1 line of the audit file could not be read and is not shown.')).toBeTruthy();
  });
});
