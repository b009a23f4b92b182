// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ContextFill } from '../../../shared/contract/chat';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ContextCut, Conversation } from '../../../shared/domain/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import { App } from '../../app';
import { createBerthStore } from '../../store';
import { createFakeTransport, type FakeHandlers } from '../../test-support/fake-transport';
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
  const transport = createFakeTransport({
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
  });
  const store = createBerthStore(transport);
  store.getState().showView('chat');
  render(<App store={store} transport={transport} />);
  return { transport, store };
}

const MESSAGES: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'First question' }] },
  { id: 'a1', role: 'assistant', createdAt: 2, content: [{ type: 'text', text: 'First answer.' }] },
  { id: 'u2', role: 'user', createdAt: 3, content: [{ type: 'text', text: 'Second question' }] },
  { id: 'a2', role: 'assistant', createdAt: 4, content: [{ type: 'text', text: 'Second answer.' }] },
];

const CUT: ContextCut = {
  kind: 'compact',
  throughMessageId: 'a1',
  summary: 'The user asked a **first question**; the assistant answered it.',
  createdAt: 5,
  model: 'claude-a',
  messageCount: 2,
  tokensBefore: 180_000,
  tokensAfter: 12_000,
};

function fill(extra: Partial<ContextFill> = {}): ContextFill {
  return {
    window: 200_000,
    reserve: 4_000,
    tokens: 84_000,
    parts: { tools: 30_000, system: 4_000, history: 48_000, attachments: 2_000 },
    calibrated: true,
    policy: 'compact',
    ...extra,
  };
}

describe('the context window in the chat', () => {
  it('shows how full the window is in the header; hover, focus or click says what takes the room and sets the policy', async () => {
    const policies: unknown[] = [];
    const { store } = mount(
      {
        'chat.context': () => ok(fill()),
        'chat.setContextPolicy': (input) => {
          policies.push(input);
          return ok({ ...conversation(MESSAGES), contextPolicy: 'drop' });
        },
      },
      MESSAGES,
    );
    const meter = await screen.findByTestId('context-meter');
    expect(meter.textContent).toContain('43%');
    expect(meter.className).toContain('context-ok');
    // Hover (title) and the accessible name say the parts.
    expect(meter.getAttribute('title')).toBe(
      'Context: 43% of 196,000 tokens (about 84,000; the window is 200,000, less 4,000 kept for the reply). Tool definitions: 30,000; System and server instructions: 4,000; Messages and tool results: 48,000; Images and documents: 2,000.',
    );
    expect(meter.getAttribute('title')).toContain('Tool definitions: 30,000');
    fireEvent.click(meter);
    const table = await screen.findByRole('table', { name: 'What takes the room' });
    expect(within(table).getByRole('row', { name: 'Tool definitions 30,000' })).toBeTruthy();
    expect(
      screen.getByText(
        'About 84,000 of 196,000 tokens (43%) for the next request: the 200,000-token window less 4,000 kept for the reply. Near 95%, Berth acts as chosen below.',
      ),
    ).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^Compact The model summarises/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('radio', { name: /Drop the oldest turns/ }));
    await waitFor(() => expect(policies).toEqual([{ id: 'c1', policy: 'drop' }]));
    await waitFor(() => expect(store.getState().conversationDetails.c1?.contextPolicy).toBe('drop'));
  });

  it('reads in the active language: the meter, its hover text, the popover and the policies', async () => {
    mount(
      {
        'settings.get': () => ok({ ...SETTINGS, language: 'zh-CN' }),
        'chat.context': () => ok(fill({ calibrated: false })),
      },
      MESSAGES,
    );
    const meter = await screen.findByTestId('context-meter');
    await waitFor(() => expect(meter.textContent).toBe('上下文43%'));
    expect(meter.getAttribute('title')).toBe(
      '上下文：已用 196,000 个 token 的 43%（约 84,000；窗口为 200,000，减去留给回复的 4,000）。工具定义：30,000；系统与服务器指令：4,000；消息与工具结果：48,000；图片与文档：2,000。',
    );
    fireEvent.click(meter);
    const table = await screen.findByRole('table', { name: '占用明细' });
    expect(within(table).getByRole('row', { name: '工具定义 30,000' })).toBeTruthy();
    expect(screen.getByText(/^下一次请求约占 196,000 个 token 中的 84,000（43%）/)).toBeTruthy();
    expect(screen.getByText(/^在此模型首次回复前为 Berth 的估算/)).toBeTruthy();
    expect(screen.getByRole('group', { name: '下一次请求放不下时' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^压缩 由模型总结/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('says when the window is unknown, and where to enter it', async () => {
    mount({ 'chat.context': () => ok(fill({ window: undefined, calibrated: false })) }, MESSAGES);
    const meter = await screen.findByTestId('context-meter');
    expect(meter.textContent).toContain('≈ 84,000');
    expect(meter.getAttribute('title')).toContain("this model's window is unknown: enter it in Settings › Providers");
  });

  it('folds the messages a compaction left out behind its block, and shows them on demand (keyboard too)', async () => {
    mount({ 'chat.context': () => ok(fill({ cut: CUT })) }, MESSAGES);
    const block = await screen.findByTestId('context-cut');
    // Folded: the block stands in for the originals; the messages after the cut are shown as ever.
    expect(block.textContent).toContain('2 earlier messages summarized');
    expect(block.textContent).toContain('about 180,000 tokens); now about 12,000');
    expect(block.textContent).toContain('The summary was written by Claude A.');
    expect(screen.queryByText('First question')).toBeNull();
    expect(screen.queryByText('First answer.')).toBeNull();
    expect(screen.getByText('Second question')).toBeTruthy();
    const details = block.querySelector('details');
    expect(details?.open).toBe(false);
    fireEvent.click(within(block).getByText('What the model remembers'));
    expect(details?.open).toBe(true);
    expect(within(block).getByText('first question').tagName).toBe('STRONG');

    // Shown: the originals are back above the block, which sits under the last of them; the toggle keeps focus.
    const show = within(block).getByRole('button', { name: 'Show 2 messages' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    show.focus();
    fireEvent.click(show);
    await screen.findByText('First question');
    const shownBlock = screen.getByTestId('context-cut');
    expect(shownBlock.textContent).toContain('Compacted: the model now remembers the 2 messages above as a summary');
    expect(screen.getByText('First answer.').closest('li')?.contains(shownBlock)).toBe(true);
    const hide = within(shownBlock).getByRole('button', { name: 'Hide 2 messages' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(hide);
    fireEvent.click(hide);
    await waitFor(() => expect(screen.queryByText('First question')).toBeNull());
    expect(screen.getByRole('button', { name: 'Show 2 messages' })).toBeTruthy();
  });

  it('shows the folded originals when "Show in chat" asks for a tool call among them', async () => {
    const withCall: ChatMessage[] = [
      MESSAGES[0]!,
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 2,
        content: [{ type: 'tool_use', id: 'call-1', server: 'weather', tool: 'forecast', apiName: 'w__f', input: {} }],
      },
      ...MESSAGES.slice(2),
    ];
    const { store } = mount({ 'chat.context': () => ok(fill({ cut: CUT })) }, withCall);
    await screen.findByTestId('context-cut');
    expect(screen.queryByText('First question')).toBeNull();
    act(() => store.setState({ toolCardFocus: { conversationId: 'c1', toolUseId: 'call-1' } }));
    await screen.findByText('First question');
    expect(screen.getByRole('button', { name: 'Hide 2 messages' })).toBeTruthy();
  });

  it('folds what a drop left out the same way', async () => {
    mount({ 'chat.context': () => ok(fill({ cut: { ...CUT, kind: 'drop', summary: undefined } })) }, MESSAGES);
    const block = await screen.findByTestId('context-cut');
    expect(block.textContent).toContain('2 earlier messages no longer sent to the model');
    expect(block.querySelector('details')).toBeNull();
    expect(screen.queryByText('First question')).toBeNull();
    fireEvent.click(within(block).getByRole('button', { name: 'Show 2 messages' }));
    await screen.findByText('First question');
    expect(screen.getByTestId('context-cut').textContent).toContain(
      'Left out: the model no longer sees the 2 messages above',
    );
  });

  it('says when Anthropic compacts the conversation itself, before Berth would', async () => {
    mount({ 'chat.context': () => ok(fill({ providerCompactsAt: 147_000 })) }, MESSAGES);
    fireEvent.click(await screen.findByTestId('context-meter'));
    expect(
      await screen.findByText(
        'About 84,000 of 196,000 tokens (43%) for the next request: the 200,000-token window less 4,000 kept for the reply. Past about 147,000 tokens Anthropic compacts the conversation itself; if it still nears 95%, Berth acts as chosen below.',
      ),
    ).toBeTruthy();
  });

  it("says when Anthropic's own context management wrote the summary", async () => {
    mount({ 'chat.context': () => ok(fill({ cut: { ...CUT, api: { signature: 'sig' } } })) }, MESSAGES);
    const block = await screen.findByTestId('context-cut');
    // Folded by default: it stands in for the messages the API summarized.
    expect(block.textContent).toContain('2 earlier messages summarized');
    expect(block.textContent).toContain("The summary was written by Anthropic's own context management for Claude A.");
  });

  it('offers Compact and retry when a reply failed because the context was full', async () => {
    const calls: unknown[] = [];
    const { transport } = mount(
      {
        'chat.context': () => ok(fill()),
        'chat.compactAndRetry': (input) => {
          calls.push(input);
          return ok({ accepted: true as const });
        },
      },
      MESSAGES.slice(0, 3),
    );
    await screen.findByText('Second question');
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', {
        type: 'turn-failed',
        ...base,
        message: 'The API rejected the request (400: prompt is too long: 210000 tokens > 200000 maximum).',
        contextFull: true,
      });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Compact and retry' }));
    await waitFor(() => expect(calls).toEqual([{ id: 'c1' }]));
    // An ordinary failure offers only Retry.
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, turnId: 't2', model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', { type: 'turn-failed', ...base, turnId: 't2', message: 'Overloaded' });
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Compact and retry' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
