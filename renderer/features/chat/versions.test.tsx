// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { MessageList } from './message-list';
import { forgetScrollPositions } from './scroll-memory';

// Branches and versions in the chat: "‹ n / m ›" on a message with other versions, Edit on every message of the
// person's (branching the conversation there), Regenerate under each reply with a menu of models.

beforeAll(() => stubResizeObserver());
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 800, rowHeight: () => 100 });
});
afterEach(async () => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
  await activateLocale('en');
});

const say = (id: string, role: 'user' | 'assistant', text: string): ChatMessage => ({
  id,
  role,
  createdAt: 1,
  content: [{ type: 'text', text }],
  ...(role === 'assistant' ? { model: 'claude-a' } : {}),
});
const base = (messages: ChatMessage[], forks?: Conversation['forks']): Conversation => ({
  id: 'c1',
  title: 'Versions',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages,
  disabledServers: [],
  disabledTools: [],
  ...(forks !== undefined ? { forks } : {}),
});
const question = say('u1', 'user', 'Where is Kiel?');
const newer = base(
  [question, say('a1b', 'assistant', 'In Schleswig-Holstein.')],
  [{ after: 'u1', active: 1, versions: [{ messages: [say('a1', 'assistant', 'On the Baltic.')] }, { messages: [] }] }],
);
const older = base(
  [question, say('a1', 'assistant', 'On the Baltic.')],
  [
    {
      after: 'u1',
      active: 0,
      versions: [{ messages: [] }, { messages: [say('a1b', 'assistant', 'In Schleswig-Holstein.')] }],
    },
  ],
);
const SETTINGS: SettingsView = {
  apiKey: { source: 'none' },
  models: [
    { id: 'claude-a', label: 'Claude A', provider: 'anthropic', providerLabel: 'Anthropic', ready: true },
    { id: 'claude-b', label: 'Claude B', provider: 'anthropic', providerLabel: 'Anthropic', ready: true },
  ],
  defaultModel: 'claude-a',
};

describe('versions in the chat', () => {
  it('shows "2 / 2" on a regenerated reply with named arrows, and switches to the earlier version', async () => {
    const view = renderWithBerth(<MessageList conversation={newer} live={undefined} />, {
      handlers: { 'chat.switchVersion': () => ok(older) },
    });
    const group = await screen.findByRole('group', { name: 'Version 2 of 2' });
    expect(group.textContent).toBe('2 / 2');
    expect((within(group).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => void fireEvent.click(within(group).getByRole('button', { name: 'Previous version' })));
    expect(view.transport.calls.find((call) => call.method === 'chat.switchVersion')?.input).toEqual({
      id: 'c1',
      after: 'u1',
      version: 0,
    });
    // The store took the host's answer: the list shows the earlier version, "1 / 2".
    const stored = view.store.getState().conversationDetails['c1'];
    expect(stored?.messages.at(-1)?.id).toBe('a1');
    view.rerender(<MessageList conversation={stored!} live={undefined} />);
    expect(screen.getByText('On the Baltic.')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Version 1 of 2' }).textContent).toBe('1 / 2');
  });

  it('edits an earlier message of the person: chat.editAt branches there, and the hint says the old replies stay', async () => {
    const conversation = base([question, say('a1', 'assistant', 'On the Baltic.'), say('u2', 'user', 'And Lübeck?')]);
    const view = renderWithBerth(<MessageList conversation={conversation} live={undefined} />, {
      handlers: { 'chat.editAt': () => ok({ accepted: true as const }), 'chat.get': () => ok(conversation) },
    });
    const first = await waitFor(() => document.querySelector<HTMLElement>('[data-message="u1"]')!);
    fireEvent.click(within(first).getByRole('button', { name: 'Edit' }));
    const input = screen.getByRole('textbox', { name: 'Edit your message' });
    expect(
      screen.getByText('The conversation branches here: the replies after this message stay as the other version.'),
    ).toBeTruthy();
    fireEvent.change(input, { target: { value: 'Where is Kiel, exactly?' } });
    await act(async () => void fireEvent.keyDown(input, { key: 'Enter' }));
    expect(view.transport.calls.find((call) => call.method === 'chat.editAt')?.input).toEqual({
      id: 'c1',
      messageId: 'u1',
      text: 'Where is Kiel, exactly?',
    });
    expect(view.transport.calls.some((call) => call.method === 'chat.editAndResend')).toBe(false);
  });

  it('regenerates a reply with another model from its menu, for that reply only (the tooltip says so)', async () => {
    const view = renderWithBerth(<MessageList conversation={newer} live={undefined} />, {
      handlers: { 'chat.regenerate': () => ok({ accepted: true as const }), 'chat.get': () => ok(newer) },
      prepare: (store) => store.getState().applySettings(SETTINGS),
    });
    const trigger = await screen.findByRole('button', { name: 'Regenerate' });
    expect(trigger.getAttribute('title')).toContain('your next messages still go to the conversation’s model');
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Again with Claude A' })).toBeTruthy();
    await act(async () => void fireEvent.click(within(menu).getByRole('menuitem', { name: 'Claude B' })));
    expect(view.transport.calls.find((call) => call.method === 'chat.regenerate')?.input).toEqual({
      id: 'c1',
      messageId: 'a1b',
      model: 'claude-b',
    });
  });
});
