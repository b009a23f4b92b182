// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { setUpChatViewTests } from '../../test-support/chat-view-tests';

setUpChatViewTests();

const SETTINGS: SettingsView = {
  apiKey: { source: 'stored', hint: '…wxyz' },
  models: [{ id: 'claude-a', label: 'Claude A' }],
  defaultModel: 'claude-a',
};
const base = { conversationId: 'c1', turnId: 't1' };

function conversation(messages: ChatMessage[] = []): Conversation {
  return {
    id: 'c1',
    title: 'Weather',
    createdAt: 1,
    updatedAt: 2,
    model: 'claude-a',
    messages,
    disabledServers: [],
    disabledTools: [],
  };
}

function mount(handlers: FakeHandlers, messages: ChatMessage[] = []) {
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () => ok(SETTINGS),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([
          { id: 'c1', title: 'Weather', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: messages.length },
        ]),
      'chat.get': () => ok(conversation(messages)),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      ...handlers,
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

const usage = (inputTokens: number, outputTokens: number, extra: Partial<NonNullable<ChatMessage['usage']>> = {}) => ({
  inputTokens,
  outputTokens,
  ...extra,
});

const COSTED: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Echo hi' }] },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    content: [
      {
        type: 'tool_use',
        id: 'tu1',
        server: 'everything',
        tool: 'echo',
        apiName: 'everything__echo',
        input: { message: 'hi' },
      },
    ],
    usage: usage(1_000, 50, { toolTokensEstimate: 300, cacheWriteTokens: 900, cacheSavedTokens: -225 }),
  },
  {
    id: 'r1',
    role: 'user',
    createdAt: 3,
    content: [{ type: 'tool_result', toolUseId: 'tu1', isError: false, content: [{ type: 'text', text: 'Echo: hi' }] }],
  },
  {
    id: 'a2',
    role: 'assistant',
    createdAt: 4,
    content: [{ type: 'text', text: 'It said hi.' }],
    usage: usage(1_200, 160, { toolTokensEstimate: 300, cacheReadTokens: 800, cacheSavedTokens: 720 }),
  },
  { id: 'u2', role: 'user', createdAt: 5, content: [{ type: 'text', text: 'Thanks' }] },
  { id: 'a3', role: 'assistant', createdAt: 6, content: [{ type: 'text', text: 'Welcome.' }] },
];

describe('what a turn costs, in the chat', () => {
  it('shows one quiet line under each answer (its model requests summed), the details on demand, and the conversation total in the header', async () => {
    mount({}, COSTED);
    await screen.findByText('It said hi.');
    const lines = screen.getAllByTestId('usage-line');
    // Only the first answer reported usage; it is shown under its last message, not under the tool call.
    expect(lines).toHaveLength(1);
    const answer = screen.getByText('It said hi.').closest('li');
    expect(answer?.contains(lines[0] ?? null)).toBe(true);
    const summary = within(lines[0] as HTMLElement).getByText(
      '3,900 in · 210 out · 800 from cache · 900 to cache · cache saved ≈ 495 · tools ≈ 600 of the input',
    );
    fireEvent.click(summary);
    expect((lines[0] as HTMLDetailsElement).open).toBe(true);
    // The facts load with the first opening.
    await within(lines[0] as HTMLElement).findByText(
      '3,900 tokens, over 2 model requests (each sends the conversation so far)',
    );
    expect(lines[0]?.textContent).toContain('Written to the prompt cache900 of the input tokens');
    expect(lines[0]?.textContent).toContain('Prompt cache saved≈ 495 input tokens’ worth');
    expect(lines[0]?.textContent).toContain(
      '≈ 600 of the input tokens (Berth’s estimate: 4 characters a token of the tool list sent)',
    );
    expect(screen.getByTestId('conversation-usage').textContent).toBe(
      'Total: 3,900 in · 210 out · 800 from cache · 900 to cache · cache saved ≈ 495 · tools ≈ 600 of the input',
    );
  });

  it('shows no usage while the answer is still being written, then the turn’s total once it is saved', async () => {
    const { transport } = mount({}, COSTED.slice(0, 1));
    await screen.findByText('Echo hi');
    expect(screen.queryByTestId('conversation-usage')).toBeNull();
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', { type: 'message-saved', ...base, message: COSTED[1] as ChatMessage });
    });
    expect(screen.queryByTestId('usage-line')).toBeNull();
    act(() => {
      transport.emit('chat.event', { type: 'message-saved', ...base, message: COSTED[2] as ChatMessage });
      transport.emit('chat.event', { type: 'message-saved', ...base, message: COSTED[3] as ChatMessage });
      transport.emit('chat.event', { type: 'turn-finished', ...base, stopReason: 'end_turn' });
    });
    expect(await screen.findByTestId('usage-line')).toBeTruthy();
    expect(screen.getByTestId('usage-line').querySelector('summary')?.textContent).toBe(
      '3,900 in · 210 out · 800 from cache · 900 to cache · cache saved ≈ 495 · tools ≈ 600 of the input',
    );
  });

  it('an empty answer (no text, no calls) gets its own row that says so, with the turn’s usage under it and in the total', async () => {
    const messages: ChatMessage[] = [
      ...COSTED.slice(0, 3),
      { id: 'a2', role: 'assistant', createdAt: 4, content: [], stopReason: 'end_turn', usage: usage(1_200, 1) },
    ];
    mount({}, messages);
    const note = await screen.findByText('The model answered with nothing. Retry, or rephrase your message.');
    const row = note.closest('li');
    expect(row?.getAttribute('aria-label')).toBe('Reply');
    const lines = screen.getAllByTestId('usage-line');
    expect(lines).toHaveLength(1);
    expect(row?.contains(lines[0] ?? null)).toBe(true);
    expect(lines[0]?.querySelector('summary')?.textContent).toBe(
      '3,100 in · 51 out · 900 to cache · tools ≈ 300 of the input',
    );
    expect(screen.getByTestId('conversation-usage').textContent).toBe(
      'Total: 3,100 in · 51 out · 900 to cache · tools ≈ 300 of the input',
    );
    // A write that nothing has read yet cost more than it saved: said so in the details, not as a saving.
    fireEvent.click(lines[0]?.querySelector('summary') as HTMLElement);
    expect(
      await within(lines[0] as HTMLElement).findByText(
        'nothing yet: writing to the cache cost ≈ 225 input tokens’ worth more than plain input; the next requests read it at a fraction of the price',
      ),
    ).toBeTruthy();
  });

  it("opens the conversation's tool switches from the tools warning", async () => {
    const { transport } = mount({
      'chat.tools': () =>
        ok({
          tools: [{ server: 'big', tool: 'everything', enabled: true }],
          offeredCount: 1,
          warning: 'The tool definitions alone take about 60,000 tokens',
        }),
    });
    await screen.findByRole('textbox', { name: 'Message' });
    act(() => {
      transport.emit('chat.event', {
        type: 'turn-started',
        ...base,
        model: 'claude-a',
        toolCount: 1,
        toolCountWarning:
          'The tool definitions alone take about 60,000 tokens: switch off the servers or tools this conversation does not need.',
      });
    });
    const banner = (await screen.findByText(/The tool definitions alone take about 60,000 tokens: switch off/)).closest(
      '[role="note"]',
    ) as HTMLElement;
    const before = transport.calls.filter((c) => c.method === 'chat.tools').length;
    fireEvent.click(within(banner).getByRole('button', { name: 'Choose tools' }));
    expect(await screen.findByText('Tools offered to the model')).toBeTruthy();
    expect(await screen.findByPlaceholderText('Search 1 tool')).toBeTruthy();
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'chat.tools').length).toBeGreaterThan(before),
    );
  });
});
