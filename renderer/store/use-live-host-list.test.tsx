// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResultLimit } from '../../shared/contract/result-settings';
import { fail, ok, type Result } from '../../shared/result';
import { createFakeTransport, type FakeTransport } from '../test-support/fake-transport';
import { renderWithBerth } from '../test-support/render-with-berth';
import { useLiveHostList } from './use-live-host-list';

afterEach(cleanup);

function Limit({ server }: { server: string }) {
  const { loaded, value, error } = useLiveHostList(
    {
      method: 'servers.resultLimits',
      input: {},
      topic: 'servers.resultLimitChanged',
      fromAnswer: (limits) => limits.find((s) => s.server === server)?.limitTokens,
      fromEvent: (setting) => (setting.server === server ? { value: setting.limitTokens } : undefined),
    },
    [server],
  );
  return <p>{error !== undefined ? `error: ${error}` : loaded ? `limit: ${value ?? 'default'}` : 'loading'}</p>;
}

/** The first answer waits until the test lets it go. */
function mount(answer: Result<ServerResultLimit[]>): { transport: FakeTransport; answer: () => Promise<void> } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const transport = createFakeTransport({
    'servers.resultLimits': async () => {
      await gate;
      return answer;
    },
  });
  renderWithBerth(<Limit server="files" />, { transport });
  return { transport, answer: async () => act(async () => release()) };
}

describe('useLiveHostList', () => {
  it('shows the first answer, then what events about it say, and ignores events about others', async () => {
    const { transport, answer } = mount(ok([{ server: 'files', limitTokens: 500 }]));
    expect(screen.getByText('loading')).toBeDefined();
    await answer();
    await screen.findByText('limit: 500');
    act(() => transport.emit('servers.resultLimitChanged', { server: 'notes', limitTokens: 9 }));
    expect(screen.getByText('limit: 500')).toBeDefined();
    act(() => transport.emit('servers.resultLimitChanged', { server: 'files', limitTokens: undefined }));
    expect(screen.getByText('limit: default')).toBeDefined();
  });

  it('keeps an event that came before the first answer: the event is newer', async () => {
    const { transport, answer } = mount(ok([{ server: 'files', limitTokens: 500 }]));
    act(() => transport.emit('servers.resultLimitChanged', { server: 'files', limitTokens: 800 }));
    expect(screen.getByText('limit: 800')).toBeDefined();
    await answer();
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'servers.resultLimits')).toBe(true));
    expect(screen.getByText('limit: 800')).toBeDefined();
  });

  it('says why the first read failed, until an event brings the value', async () => {
    const { transport, answer } = mount(fail('INTERNAL', 'settings unreadable'));
    await answer();
    await screen.findByText('error: settings unreadable');
    act(() => transport.emit('servers.resultLimitChanged', { server: 'files', limitTokens: 700 }));
    expect(screen.getByText('limit: 700')).toBeDefined();
  });

  it('stops following the topic when the view goes away', async () => {
    const { transport, answer } = mount(ok([]));
    await answer();
    await screen.findByText('limit: default');
    expect(transport.listening('servers.resultLimitChanged')).toBe(1);
    cleanup();
    expect(transport.listening('servers.resultLimitChanged')).toBe(0);
  });
});
