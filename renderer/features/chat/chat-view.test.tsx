// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import type { SettingsView } from '../../../shared/contract/settings';
import { ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { buildTimeline, toolCallStatus } from './chat-model';
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

const TOOL_EXCHANGE: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Echo hi' }] },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    content: [
      { type: 'text', text: 'Calling **echo**.' },
      {
        type: 'tool_use',
        id: 'tu1',
        server: 'everything',
        tool: 'echo',
        apiName: 'everything__echo',
        input: { message: 'hi' },
      },
    ],
  },
  {
    id: 'r1',
    role: 'user',
    createdAt: 3,
    content: [
      {
        type: 'tool_result',
        toolUseId: 'tu1',
        isError: false,
        content: [
          { type: 'text', text: 'Echo: hi' },
          { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc', title: 'The doc' },
        ],
        structuredContent: { echoed: 'hi' },
      },
    ],
  },
];

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

describe('<ChatView>', () => {
  it('shows the reply as it streams, then the saved message', async () => {
    const { transport } = mount({});
    await screen.findByRole('textbox', { name: 'Message' });
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Hi there' }] },
      });
      transport.emit('chat.event', { type: 'text-delta', ...base, text: 'Hello, ' });
      transport.emit('chat.event', { type: 'text-delta', ...base, text: 'how can I help?' });
    });
    expect((await screen.findByTestId('streaming-reply')).textContent).toContain('Hello, how can I help?');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    act(() => {
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: {
          id: 'a1',
          role: 'assistant',
          createdAt: 2,
          content: [{ type: 'text', text: 'Hello, how can I help?' }],
        },
      });
      transport.emit('chat.event', { type: 'turn-finished', ...base, stopReason: 'end_turn' });
    });
    expect(screen.queryByTestId('streaming-reply')).toBeNull();
    expect(screen.getByText('Hello, how can I help?')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('shows a turn notice (the model cannot use tools) as a note that stays after the reply', async () => {
    const { transport } = mount({});
    await screen.findByRole('textbox', { name: 'Message' });
    const notice =
      'llama3.1:8b cannot use tools, so this reply has none. Pick another model in the message box to use tools.';
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 2 });
      transport.emit('chat.event', { type: 'turn-notice', ...base, message: notice });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: { id: 'a1', role: 'assistant', createdAt: 2, content: [{ type: 'text', text: 'Hi.' }] },
      });
      transport.emit('chat.event', { type: 'turn-finished', ...base, stopReason: 'end_turn' });
    });
    expect((await screen.findByRole('note')).textContent).toBe(notice);
  });

  it('sends with Enter, keeps Shift+Enter for new lines, and keeps the text when sending fails', async () => {
    const { transport } = mount({
      'chat.send': ({ text }) =>
        text === 'fail' ? { ok: false, code: 'INTERNAL', message: 'No key' } : ok({ accepted: true as const }),
    });
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'fail' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(transport.calls.some((c) => c.method === 'chat.send')).toBe(false);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('No key')).toBeTruthy();
    expect(box.value).toBe('fail');
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(box.value).toBe(''));
    expect(transport.calls.filter((c) => c.method === 'chat.send').map((c) => c.input)).toEqual([
      { id: 'c1', text: 'fail', model: 'claude-a' },
      { id: 'c1', text: 'hello', model: 'claude-a' },
    ]);
  });

  it('shows a tool call with its real server and tool, result blocks and structured content', async () => {
    mount({}, TOOL_EXCHANGE);
    const card = (await screen.findByText('echo', { selector: '.tool-name' })).closest('.tool-call') as HTMLElement;
    expect(within(card).getByText('everything')).toBeTruthy();
    expect(within(card).getByText('Done')).toBeTruthy();
    expect(within(card).getByText('Echo: hi')).toBeTruthy();
    expect(within(card).getByText('The doc')).toBeTruthy();
    expect(within(card).getByText(/"echoed": "hi"/)).toBeTruthy();
    // The Markdown renderer loads on demand: the raw text shows first, then the rendered Markdown.
    expect(await screen.findByText('echo', { selector: 'strong' })).toBeTruthy();
  });

  it('shows a parallel call’s result as soon as it finishes, while the other still runs', async () => {
    const ask: ChatMessage = {
      id: 'a1',
      role: 'assistant',
      createdAt: 2,
      content: [
        {
          type: 'tool_use',
          id: 'slow',
          server: 'everything',
          tool: 'trigger-long-running-operation',
          apiName: 'everything__trigger-long-running-operation',
          input: {},
        },
        {
          type: 'tool_use',
          id: 'fast',
          server: 'everything',
          tool: 'echo',
          apiName: 'everything__echo',
          input: { message: 'quick' },
        },
      ],
    };
    const { transport } = mount({}, [TOOL_EXCHANGE[0]!, ask]);
    const cardOf = async (tool: string) =>
      (await screen.findByText(tool, { selector: '.tool-name' })).closest('.tool-call') as HTMLElement;
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 2 });
      for (const [id, tool] of [
        ['slow', 'trigger-long-running-operation'],
        ['fast', 'echo'],
      ] as const) {
        transport.emit('chat.event', {
          type: 'tool-call-started',
          ...base,
          toolUseId: id,
          server: 'everything',
          tool,
          input: {},
        });
      }
    });
    const fastResult = {
      type: 'tool_result' as const,
      toolUseId: 'fast',
      content: [{ type: 'text' as const, text: 'Echo: quick' }],
      isError: false,
    };
    act(() =>
      transport.emit('chat.event', {
        type: 'tool-call-finished',
        ...base,
        toolUseId: 'fast',
        isError: false,
        denied: false,
        result: fastResult,
      }),
    );
    const fast = await cardOf('echo');
    expect(within(fast).getByText('Done')).toBeTruthy();
    expect(within(fast).getByText('Echo: quick')).toBeTruthy();
    const slow = await cardOf('trigger-long-running-operation');
    expect(within(slow).getByText('Running')).toBeTruthy();
    expect(within(slow).getByRole('button', { name: 'Stop' })).toBeTruthy();
    // The slow one ends, both results are saved in one message: nothing changes on the fast card.
    const slowResult = {
      type: 'tool_result' as const,
      toolUseId: 'slow',
      content: [{ type: 'text' as const, text: 'Long running operation completed.' }],
      isError: false,
    };
    act(() => {
      transport.emit('chat.event', {
        type: 'tool-call-finished',
        ...base,
        toolUseId: 'slow',
        isError: false,
        denied: false,
        result: slowResult,
      });
      transport.emit('chat.event', {
        type: 'message-saved',
        ...base,
        message: { id: 'r1', role: 'user', createdAt: 3, content: [slowResult, fastResult] },
      });
    });
    expect(within(await cardOf('echo')).getByText('Echo: quick')).toBeTruthy();
    expect(
      within(await cardOf('trigger-long-running-operation')).getByText('Long running operation completed.'),
    ).toBeTruthy();
  });

  it('a call the person stopped reads “Stopped by you”, not an error, as saved (older conversations too)', async () => {
    const stoppedText = { type: 'text' as const, text: 'The user stopped this tool call before it finished.' };
    const saved: ChatMessage[] = [
      TOOL_EXCHANGE[0]!,
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 2,
        content: [
          {
            type: 'tool_use',
            id: 'marked',
            server: 'everything',
            tool: 'trigger-long-running-operation',
            apiName: 'a',
            input: {},
          },
          { type: 'tool_use', id: 'legacy', server: 'everything', tool: 'echo', apiName: 'b', input: {} },
        ],
      },
      {
        id: 'r1',
        role: 'user',
        createdAt: 3,
        content: [
          { type: 'tool_result', toolUseId: 'marked', content: [stoppedText], isError: true, stopped: true },
          // Saved before the marker existed: recognised by the text the model was given.
          { type: 'tool_result', toolUseId: 'legacy', content: [stoppedText], isError: true },
        ],
      },
    ];
    mount({}, saved);
    for (const tool of ['trigger-long-running-operation', 'echo']) {
      const card = (await screen.findByText(tool, { selector: '.tool-name' })).closest('.tool-call') as HTMLElement;
      expect(card.dataset.status).toBe('stopped');
      expect(within(card).getByText('Stopped by you')).toBeTruthy();
      expect(await within(card).findByText('You stopped this call before it finished.')).toBeTruthy();
      expect(within(card).queryByText('The tool reported an error')).toBeNull();
    }
  });

  it('a call whose question Berth withdrew (it quit, its window closed) reads “Cancelled” with why, never “You denied”', async () => {
    const saved: ChatMessage[] = [
      TOOL_EXCHANGE[0]!,
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 2,
        content: [{ type: 'tool_use', id: 'w', server: 'everything', tool: 'echo', apiName: 'a', input: {} }],
      },
      {
        id: 'r1',
        role: 'user',
        createdAt: 3,
        content: [
          {
            type: 'tool_result',
            toolUseId: 'w',
            content: [],
            isError: true,
            denied: { reason: 'Berth quit', byHost: true },
          },
        ],
      },
    ];
    mount({}, saved);
    const card = (await screen.findByText('echo', { selector: '.tool-name' })).closest('.tool-call') as HTMLElement;
    expect(card.dataset.status).toBe('withdrawn');
    expect(within(card).getByText('Cancelled')).toBeTruthy();
    expect(within(card).getByRole('note').textContent).toBe(
      'Cancelled before you answered: Berth quit. It did not run; the model was told.',
    );
    expect(within(card).queryByText(/You denied/)).toBeNull();
  });

  it('explains how to add an API key when there is none and no conversation', async () => {
    mount({
      'settings.get': () => ok({ ...SETTINGS, apiKey: { source: 'none' as const } }),
      'chat.list': () => ok([]),
    });
    expect(await screen.findByText('Add your Anthropic API key to chat')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    // Settings is a lazy chunk: on a loaded machine it can take longer than the default second to arrive.
    expect(await screen.findByLabelText('API key', {}, { timeout: 10_000 })).toBeTruthy();
  });
});

describe('chat model', () => {
  it('folds tool results into the call that made them and marks the last person message', () => {
    const items = buildTimeline(TOOL_EXCHANGE);
    expect(items.map((i) => i.kind)).toEqual(['person', 'assistant']);
    const assistant = items[1]!;
    if (assistant.kind !== 'assistant') throw new Error('expected an assistant row');
    expect(assistant.parts.map((p) => p.kind)).toEqual(['text', 'tool-call']);
    expect(assistant.parts[1]).toMatchObject({ use: { id: 'tu1' }, result: { toolUseId: 'tu1' } });
    expect(items[0]).toMatchObject({ isLast: true, text: 'Echo hi' });
  });

  it('derives a call’s status from its result, then the live events, then whether the turn still runs', () => {
    const live = { toolUseId: 't', server: 's', tool: 'x', input: {} };
    expect(
      toolCallStatus({ type: 'tool_result', toolUseId: 't', content: [], isError: true, denied: {} }, undefined, false),
    ).toBe('denied');
    expect(
      toolCallStatus(
        {
          type: 'tool_result',
          toolUseId: 't',
          content: [],
          isError: true,
          denied: { reason: 'Berth quit', byHost: true },
        },
        undefined,
        false,
      ),
    ).toBe('withdrawn');
    expect(toolCallStatus({ type: 'tool_result', toolUseId: 't', content: [], isError: true }, undefined, false)).toBe(
      'error',
    );
    expect(toolCallStatus(undefined, { ...live, status: 'awaiting-consent' }, true)).toBe('awaiting-consent');
    expect(toolCallStatus(undefined, { ...live, status: 'running' }, true)).toBe('running');
    expect(toolCallStatus(undefined, { ...live, status: 'running' }, false)).toBe('interrupted');
    expect(
      toolCallStatus(
        { type: 'tool_result', toolUseId: 't', content: [], isError: true, stopped: true },
        undefined,
        false,
      ),
    ).toBe('stopped');
  });
});
