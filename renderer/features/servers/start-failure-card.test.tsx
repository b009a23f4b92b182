// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import { startFailureText, startFailureWords } from '../../../shared/domain/server-start-error';
import { serverStateReason } from '../../../shared/domain/server-state-reasons';
import { activateLocale } from '../../i18n/i18n';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ServersView } from './servers-view';

afterEach(cleanup);

function mount(servers: ServerState[], selected: string): void {
  renderWithBerth(<ServersView />, {
    transport: createFakeTransport(),
    prepare: (store) => {
      store.getState().applyServersSnapshot(servers);
      store.setState({ selectedServer: selected });
    },
  });
}

const row = (name: string): HTMLElement => document.querySelector<HTMLElement>(`.server-card[data-server="${name}"]`)!;

// Issue 33, item 6: the card says at which stage a start failed and what the server itself said, as the host words it.
describe('a server whose start failed', () => {
  const stripe = serverState('stripe', {
    status: 'error',
    reason: startFailureText({
      code: 'timeout',
      seconds: 30,
      stage: 'handshake',
      serverLine: 'getaddrinfo ENOTFOUND mcp.stripe.com',
    }),
  });
  const supabase = serverState('supabase', {
    status: 'error',
    reason: startFailureText({ code: 'failed', detail: 'MCP error -32603: fetch failed', stage: 'tools' }),
  });

  it('shows the stage and the likely cause in its card, the whole reason on hover', () => {
    mount([stripe, supabase], 'supabase');
    const card = within(row('stripe')).getByText(/^did not finish the MCP handshake within 30 s; /);
    expect(card.textContent).toBe(
      'did not finish the MCP handshake within 30 s; cannot reach mcp.stripe.com — no network? (stderr: getaddrinfo ENOTFOUND mcp.stripe.com)',
    );
    // The card clamps to three lines: the whole reason, the server's own line included, is its title.
    expect(card.getAttribute('title')).toBe(card.textContent);
    expect(within(row('supabase')).getByText(/listing its tools failed/).textContent).toBe(
      'finished the MCP handshake, but listing its tools failed: MCP error -32603: fetch failed; cannot reach its service — no network?',
    );
  });

  it('says in the details that the handshake worked and the tool listing did not, marked as trouble', () => {
    mount([stripe, supabase], 'supabase');
    const reason = screen.getByTestId('server-reason');
    expect(reason.textContent).toMatch(/^finished the MCP handshake, but listing its tools failed: /);
    expect(reason.textContent).not.toMatch(/MCP handshake failed/);
    expect(reason.classList).toContain('trouble');
  });
});

describe("a start failure in the person's language", () => {
  afterEach(() => activateLocale('en'));

  it("words the failure inside the restart policy's words, the server's own line kept as it wrote it", async () => {
    await activateLocale('ko');
    const exited = startFailureWords({
      code: 'exited',
      exit: '2',
      stage: 'handshake',
      serverLine: 'misbehave: refusing to start',
    });
    const gaveUp = serverStateReason('server-state.gave-up', { restarts: 2, reason: exited.text }, exited.hostMessage);
    const stuck = startFailureWords({
      code: 'timeout',
      seconds: 30,
      stage: 'handshake',
      serverLine: 'getaddrinfo ENOTFOUND mcp.stripe.com',
    });
    mount(
      [
        serverState('bad', { status: 'crashed', reason: gaveUp.text, reasonMessage: gaveUp.hostMessage }),
        serverState('stripe', { status: 'error', reason: stuck.text, reasonMessage: stuck.hostMessage }),
      ],
      'bad',
    );
    expect(row('bad').querySelector('.server-card-reason')?.textContent).toBe(
      '2번 다시 시작한 뒤 포기했습니다: MCP 핸드셰이크 중에 종료되었습니다(코드 2). stderr 출력: misbehave: refusing to start',
    );
    expect(row('stripe').querySelector('.server-card-reason')?.textContent).toBe(
      '30초 안에 MCP 핸드셰이크를 끝내지 못했습니다. mcp.stripe.com에 연결할 수 없습니다. 네트워크가 끊겼나요? (stderr: getaddrinfo ENOTFOUND mcp.stripe.com)',
    );
    expect(row('stripe').querySelector('.server-card-reason code')?.textContent).toBe('mcp.stripe.com');
  });
});
