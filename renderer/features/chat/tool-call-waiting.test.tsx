// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import type { PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending } from '../../store';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { toolCallStatus } from './chat-model';

useMountedAppEnvironment();

const base = { conversationId: 'c1', turnId: 't1' };
const CALL: ChatMessage[] = [
  { id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Ask me' }] },
  {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    content: [
      {
        type: 'tool_use',
        id: 'tu1',
        server: 'everything',
        tool: 'trigger-elicitation-request',
        apiName: 'everything__trigger-elicitation-request',
        input: {},
      },
    ],
  },
];
const FORM: PendingRequest = {
  id: 'q1',
  kind: 'elicitation',
  server: 'everything',
  conversationId: 'c1',
  toolUseId: 'tu1',
  createdAt: 3,
  payload: {
    mode: 'form',
    message: 'What is your name?',
    fields: [{ kind: 'string', name: 'name', label: 'Name', required: true }],
  },
};

function mount() {
  const conversation: Conversation = {
    id: 'c1',
    title: 'Forms',
    createdAt: 1,
    updatedAt: 2,
    model: 'claude-a',
    messages: CALL,
    disabledServers: [],
    disabledTools: [],
  };
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
        }),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Forms', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: CALL.length }]),
      'chat.get': () => ok(conversation),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

describe('a tool call that waits for the person', () => {
  it('reads "Waiting for your answer" with an Answer button that opens its question, then runs on', async () => {
    const { transport } = mount();
    const card = (await screen.findByText('trigger-elicitation-request', { selector: '.tool-name' })).closest(
      '.tool-call',
    ) as HTMLElement;
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 1 });
      transport.emit('chat.event', {
        type: 'tool-call-started',
        ...base,
        toolUseId: 'tu1',
        server: 'everything',
        tool: 'trigger-elicitation-request',
        input: {},
      });
    });
    expect(within(card).getByText('Running')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Answer' })).toBeNull();

    act(() => {
      transport.emit('pending.changed', { change: { type: 'opened', request: FORM }, counts: countPending([FORM]) });
      transport.emit('chat.event', { type: 'tool-call-waiting', ...base, toolUseId: 'tu1', pendingId: 'q1' });
    });
    expect(within(card).getByText('Waiting for your answer')).toBeTruthy();
    expect(within(card).queryByText('Running')).toBeNull();
    expect(card.dataset.status).toBe('waiting-answer');
    expect(within(card).getByText('Time limit paused until you answer')).toBeTruthy();

    // The person puts the form aside; the card's Answer brings that very form back.
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('What is your name?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(within(card).getByRole('button', { name: 'Answer' }));
    expect(within(await screen.findByRole('dialog')).getByText('What is your name?')).toBeTruthy();

    act(() => {
      transport.emit('pending.changed', {
        change: { type: 'answered', id: 'q1', kind: 'elicitation' },
        counts: countPending([]),
      });
      transport.emit('chat.event', { type: 'tool-call-waiting', ...base, toolUseId: 'tu1', pendingId: null });
    });
    expect(within(card).getByText('Running')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Answer' })).toBeNull();
  });

  it('counts as waiting only while the call runs in a running turn', () => {
    const live = { toolUseId: 't', server: 's', tool: 'x', input: {}, status: 'running' as const, waitingFor: 'q1' };
    expect(toolCallStatus(undefined, live, true)).toBe('waiting-answer');
    expect(toolCallStatus(undefined, { ...live, waitingFor: undefined }, true)).toBe('running');
    expect(toolCallStatus(undefined, live, false)).toBe('interrupted');
    expect(toolCallStatus({ type: 'tool_result', toolUseId: 't', content: [], isError: false }, live, true)).toBe(
      'done',
    );
  });
});
