// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateChatToolsView } from '../../../bench/generators/many-tools';
import type { Conversation } from '../../../shared/domain/chat';
import { ok } from '../../../shared/result';
import { mockElementSizes } from '../../test-support/element-sizes';
import { createFakeTransport } from '../../test-support/fake-transport';
import { ToolsPopover } from './tools-popover';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
});
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.tools-groups', viewportHeight: 400, rowHeight: () => 28 });
});
afterEach(() => {
  cleanup();
  restoreSizes();
});

const conversation: Conversation = {
  id: 'c1',
  title: 'Many tools',
  createdAt: 1,
  updatedAt: 1,
  model: 'm',
  messages: [],
  disabledServers: [],
  disabledTools: [],
};

async function openWith2000Tools() {
  const transport = createFakeTransport({
    'chat.tools': () => ok(generateChatToolsView()),
    'chat.setTools': ({ disabledServers, disabledTools }) => ok({ ...conversation, disabledServers, disabledTools }),
  });
  renderWithBerth(<ToolsPopover conversation={conversation} />, { transport });
  fireEvent.click(screen.getByRole('button', { name: /^Tools( \d+\/\d+)? for this conversation$/ }));
  const list = await screen.findByRole('group', { name: 'Servers and tools' });
  await screen.findByRole('switch', { name: 'Offer the tools of server-00' });
  return { transport, list };
}

describe('<ToolsPopover> with 50 servers and 2,000 tools', () => {
  it('renders only the switches in view, and the rest as the list scrolls', async () => {
    const { list } = await openWith2000Tools();
    expect(screen.getByText('2000 of 2000')).toBeTruthy();
    const switches = within(list).getAllByRole('switch');
    expect(switches.length).toBeGreaterThan(5);
    expect(switches.length).toBeLessThan(40);
    expect(within(list).queryByRole('switch', { name: 'Offer the tools of server-49' })).toBeNull();
    act(() => {
      list.scrollTop = list.scrollHeight;
      list.dispatchEvent(new Event('scroll'));
    });
    expect(within(list).getByRole('switch', { name: 'Offer tool_039 of server-49' })).toBeTruthy();
    expect(within(list).queryByRole('switch', { name: 'Offer the tools of server-00' })).toBeNull();
  });

  it('finds a server’s tools by search and switches one off', async () => {
    const { transport, list } = await openWith2000Tools();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tools' }), { target: { value: 'server-07' } });
    const names = within(list)
      .getAllByRole('switch')
      .map((s) => s.getAttribute('aria-label'));
    expect(names[0]).toBe('Offer the tools of server-07');
    expect(names.slice(1).every((name) => name?.endsWith(' of server-07'))).toBe(true);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tools' }), { target: { value: 'step 1999' } });
    const found = within(list).getAllByRole('switch');
    expect(found.map((s) => s.getAttribute('aria-label'))).toEqual([
      'Offer the tools of server-49',
      'Offer tool_039 of server-49',
    ]);
    // A switch is a real button: keyboard users reach it with Tab and toggle it with Space.
    expect(found[1]!.tagName).toBe('BUTTON');
    await act(async () => fireEvent.click(found[1]!));
    expect(transport.calls.find((c) => c.method === 'chat.setTools')?.input).toEqual({
      id: 'c1',
      disabledServers: [],
      disabledTools: ['server-49/tool_039'],
    });

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tools' }), { target: { value: 'no such tool' } });
    expect(screen.getByText('No server or tool matches “no such tool”.')).toBeTruthy();
  });
});
