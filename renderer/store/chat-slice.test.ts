import { describe, expect, it, vi } from 'vitest';
import type { ChatEvent, ChatMessage, Conversation } from '../../shared/domain/chat';
import { ok } from '../../shared/result';
import { activateLocale } from '../i18n/i18n';
import { createFakeTransport } from '../test-support/fake-transport';
import { reduceLiveTurn } from './chat-slice';
import { connectStore, createBerthStore } from './create-store';
import { shownToasts } from '../test-support/shown-toasts';

const base = { conversationId: 'c1', turnId: 't1' };

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: 'c1',
    title: 'Hello',
    createdAt: 1,
    updatedAt: 1,
    model: 'claude-test',
    messages: [],
    disabledServers: [],
    disabledTools: [],
    ...overrides,
  };
}

function message(id: string, role: 'user' | 'assistant', text: string): ChatMessage {
  return { id, role, createdAt: 10, content: [{ type: 'text', text }] };
}

describe('reduceLiveTurn', () => {
  it('a background task reporting after its turn ended does not bring a later, finished turn back to "running"', () => {
    const later = { conversationId: 'c1', turnId: 't2' };
    const events: ChatEvent[] = [
      { type: 'turn-started', ...base, model: 'm', toolCount: 1 },
      { type: 'turn-finished', ...base, stopReason: 'end_turn' },
      { type: 'turn-started', ...later, model: 'm', toolCount: 1 },
      { type: 'turn-finished', ...later, stopReason: 'end_turn' },
      // The first turn's task goes on and ends.
      { type: 'tool-task', ...base, toolUseId: 'tu1', taskId: 'task-1', status: 'working' },
      { type: 'tool-task', ...base, toolUseId: 'tu1', taskId: 'task-1', status: 'completed' },
    ];
    const turn = events.reduce(reduceLiveTurn, undefined as never);
    expect(turn).toMatchObject({ turnId: 't2', running: false, stopReason: 'end_turn' });
  });

  it('accumulates text deltas into the reply being written and clears it when the message is saved', () => {
    const events: ChatEvent[] = [
      { type: 'turn-started', ...base, model: 'm', toolCount: 3 },
      { type: 'text-delta', ...base, text: 'Hel' },
      { type: 'text-delta', ...base, text: 'lo ' },
      { type: 'text-delta', ...base, text: 'world' },
    ];
    const turn = events.reduce(reduceLiveTurn, undefined as never);
    expect(turn).toMatchObject({ running: true, draft: 'Hello world', toolCount: 3 });
    const saved = reduceLiveTurn(turn, {
      type: 'message-saved',
      ...base,
      message: message('a1', 'assistant', 'Hello world'),
    });
    expect(saved.draft).toBe('');
    // A person message (saved at turn start) leaves the draft alone.
    expect(reduceLiveTurn(turn, { type: 'message-saved', ...base, message: message('u1', 'user', 'hi') }).draft).toBe(
      'Hello world',
    );
  });

  it('keeps a turn notice (the model cannot use tools) after the turn ends, and a new turn starts without it', () => {
    let turn = reduceLiveTurn(undefined, { type: 'turn-started', ...base, model: 'm', toolCount: 2 });
    turn = reduceLiveTurn(turn, { type: 'text-delta', ...base, text: 'Half a reply bef' });
    const noTools = { code: 'chat-notice.no-tools', params: { model: 'm' } };
    turn = reduceLiveTurn(turn, { type: 'turn-notice', ...base, message: 'm cannot use tools', hostMessage: noTools });
    // The model is asked again: the refused attempt's text is not part of the reply.
    expect(turn.draft).toBe('');
    // A second kind (images left out) shows beside the first; the same one again does not repeat.
    turn = reduceLiveTurn(turn, { type: 'turn-notice', ...base, message: 'm does not take images' });
    turn = reduceLiveTurn(turn, { type: 'turn-notice', ...base, message: 'm cannot use tools' });
    turn = reduceLiveTurn(turn, { type: 'turn-finished', ...base, stopReason: 'end_turn' });
    expect(turn).toMatchObject({
      running: false,
      notices: [{ message: 'm cannot use tools', hostMessage: noTools }, { message: 'm does not take images' }],
    });
    expect(
      reduceLiveTurn(turn, { type: 'turn-started', conversationId: 'c1', turnId: 't2', model: 'm', toolCount: 2 })
        .notices,
    ).toBeUndefined();
  });

  it('follows a tool call from consent to progress to its end', () => {
    let turn = reduceLiveTurn(undefined, { type: 'turn-started', ...base, model: 'm', toolCount: 1 });
    turn = reduceLiveTurn(turn, {
      type: 'tool-call-pending',
      ...base,
      toolUseId: 'u1',
      server: 's',
      tool: 'echo',
      input: { a: 1 },
    });
    expect(turn.toolCalls.u1).toMatchObject({ status: 'awaiting-consent', server: 's', tool: 'echo' });
    turn = reduceLiveTurn(turn, {
      type: 'tool-call-started',
      ...base,
      toolUseId: 'u1',
      server: 's',
      tool: 'echo',
      input: { a: 2 },
    });
    turn = reduceLiveTurn(turn, {
      type: 'tool-progress',
      ...base,
      toolUseId: 'u1',
      progress: 2,
      total: 5,
      message: 'step 2',
    });
    expect(turn.toolCalls.u1).toMatchObject({
      status: 'running',
      input: { a: 2 },
      progress: { progress: 2, total: 5, message: 'step 2' },
    });
    turn = reduceLiveTurn(turn, {
      type: 'tool-call-finished',
      ...base,
      toolUseId: 'u1',
      isError: false,
      denied: false,
    });
    expect(turn.toolCalls.u1).toMatchObject({ status: 'finished', isError: false, denied: false, server: 's' });
  });

  it('keeps a finished call’s result until the saved message holds it', () => {
    const result = {
      type: 'tool_result' as const,
      toolUseId: 'u1',
      content: [{ type: 'text' as const, text: 'done' }],
      isError: false,
    };
    let turn = reduceLiveTurn(undefined, { type: 'turn-started', ...base, model: 'm', toolCount: 2 });
    turn = reduceLiveTurn(turn, {
      type: 'tool-call-finished',
      ...base,
      toolUseId: 'u1',
      isError: false,
      denied: false,
      result,
    });
    turn = reduceLiveTurn(turn, {
      type: 'tool-call-started',
      ...base,
      toolUseId: 'u2',
      server: 's',
      tool: 'slow',
      input: {},
    });
    expect(turn.toolCalls.u1?.result).toEqual(result);
    // Progress that arrives after the end is ignored.
    expect(
      reduceLiveTurn(turn, { type: 'tool-progress', ...base, toolUseId: 'u1', progress: 9 }).toolCalls.u1,
    ).toMatchObject({ status: 'finished', result });
    turn = reduceLiveTurn(turn, {
      type: 'message-saved',
      ...base,
      message: { id: 'r1', role: 'user', createdAt: 3, content: [result] },
    });
    expect(turn.toolCalls.u1).toMatchObject({ status: 'finished', isError: false });
    expect(turn.toolCalls.u1?.result).toBeUndefined();
    expect(turn.toolCalls.u2?.status).toBe('running');
  });

  it('ends the turn on finish or failure, dropping an unsaved partial reply', () => {
    const writing = reduceLiveTurn(
      reduceLiveTurn(undefined, { type: 'turn-started', ...base, model: 'm', toolCount: 0 }),
      { type: 'text-delta', ...base, text: 'half' },
    );
    expect(reduceLiveTurn(writing, { type: 'turn-finished', ...base, stopReason: 'stopped' })).toMatchObject({
      running: false,
      draft: '',
      stopReason: 'stopped',
    });
    expect(reduceLiveTurn(writing, { type: 'turn-failed', ...base, message: 'overloaded' })).toMatchObject({
      running: false,
      draft: '',
      error: 'overloaded',
    });
  });

  it('starts a fresh turn when events of another turn arrive (turn-started missed while reconnecting)', () => {
    const old = reduceLiveTurn(undefined, { type: 'text-delta', ...base, text: 'old' });
    const next = reduceLiveTurn(old, { type: 'text-delta', conversationId: 'c1', turnId: 't2', text: 'new' });
    expect(next).toMatchObject({ turnId: 't2', running: true, draft: 'new' });
  });
});

describe('chat slice', () => {
  it('keeps deltas per conversation and appends saved messages to an open conversation once', async () => {
    const transport = createFakeTransport({
      'chat.get': () => ok(conversation({ messages: [message('u0', 'user', 'earlier')] })),
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await store.getState().openConversation('c1');
    transport.emit('chat.event', { type: 'turn-started', ...base, model: 'm', toolCount: 0 });
    transport.emit('chat.event', { type: 'text-delta', ...base, text: 'A' });
    transport.emit('chat.event', { type: 'text-delta', conversationId: 'c2', turnId: 'x', text: 'other' });
    transport.emit('chat.event', { type: 'text-delta', ...base, text: 'B' });
    expect(store.getState().liveTurns.c1!.draft).toBe('AB');
    expect(store.getState().liveTurns.c2!.draft).toBe('other');
    const reply = message('a1', 'assistant', 'AB');
    transport.emit('chat.event', { type: 'message-saved', ...base, message: reply });
    transport.emit('chat.event', { type: 'message-saved', ...base, message: reply });
    expect(store.getState().conversationDetails.c1!.messages.map((m) => m.id)).toEqual(['u0', 'a1']);
    expect(store.getState().liveTurns.c1!.draft).toBe('');
  });

  it('picks the newest conversation and follows the list when the active one is deleted', () => {
    const store = createBerthStore(createFakeTransport());
    const summary = (id: string) => ({ id, title: id, createdAt: 1, updatedAt: 1, model: 'm', messageCount: 0 });
    store.getState().applyConversationsChanged([summary('b'), summary('a')]);
    expect(store.getState().activeConversationId).toBe('b');
    store.getState().applyConversationsChanged([summary('a')]);
    expect(store.getState().activeConversationId).toBe('a');
  });

  it('deletes with an Undo toast that restores the conversation', async () => {
    const summary = { id: 'c1', title: 'Trip plan', createdAt: 1, updatedAt: 1, model: 'm', messageCount: 2 };
    const transport = createFakeTransport({
      'chat.delete': () => ok({ deleted: 'c1' }),
      'chat.restore': () => ok(summary),
      'chat.get': () => ok(conversation({ title: 'Trip plan' })),
    });
    const store = createBerthStore(transport);
    store.getState().applyConversationsChanged([summary]);
    await store.getState().deleteConversation('c1');
    expect(store.getState().conversations).toEqual([]);
    const [toast] = shownToasts(store);
    expect(toast).toMatchObject({ title: 'Deleted “Trip plan”', action: { label: 'Undo' } });
    toast!.action!.run();
    await vi.waitFor(() => expect(store.getState().conversations.map((c) => c.id)).toEqual(['c1']));
    expect(transport.calls.map((c) => c.method)).toEqual(['chat.delete', 'chat.restore', 'chat.get']);
    expect(store.getState().activeConversationId).toBe('c1');
  });

  it('words its toasts in the language the person chose: the Undo toast and a refused call read in Chinese', async () => {
    await activateLocale('zh-CN');
    const summary = { id: 'c1', title: 'Trip plan', createdAt: 1, updatedAt: 1, model: 'm', messageCount: 2 };
    const transport = createFakeTransport({
      'chat.delete': () => ok({ deleted: 'c1' }),
      'chat.stop': () => ({ ok: false, code: 'NOT_FOUND', message: 'No such conversation' }),
    });
    const store = createBerthStore(transport);
    store.getState().applyConversationsChanged([summary]);
    await store.getState().deleteConversation('c1');
    await store.getState().stopTurn('c1');
    expect(shownToasts(store)).toMatchObject([
      { title: '已删除“Trip plan”', action: { label: '撤销' } },
      // The host's own words stay as it sent them.
      { title: '无法停止回复', message: 'No such conversation' },
    ]);
  });

  it('returns a failed send to the composer and sends the chosen model', async () => {
    const transport = createFakeTransport({
      'chat.send': () => ({ ok: false, code: 'CONFLICT', message: 'A reply is still being written' }),
    });
    const store = createBerthStore(transport);
    const result = await store.getState().sendMessage('c1', 'hi', 'claude-x');
    expect(result).toMatchObject({ ok: false, message: 'A reply is still being written' });
    expect(transport.calls[0]).toEqual({ method: 'chat.send', input: { id: 'c1', text: 'hi', model: 'claude-x' } });
  });
});

describe('the conversation’s model', () => {
  it('saves a picked model with the conversation at once, and puts the old one back with a toast when refused', async () => {
    let refuse = false;
    const transport = createFakeTransport({
      'chat.setModel': ({ id, model }) =>
        refuse
          ? { ok: false, code: 'INVALID_INPUT', message: `Unknown model '${model}'` }
          : ok(conversation({ id, model })),
    });
    const store = createBerthStore(transport);
    store.getState().applyConversation(conversation());
    const picked = store.getState().setConversationModel('c1', 'claude-other');
    // Shown before the host answers: Retry pressed right after reads the new model.
    expect(store.getState().conversationDetails.c1?.model).toBe('claude-other');
    await picked;
    expect(transport.calls.at(-1)).toEqual({ method: 'chat.setModel', input: { id: 'c1', model: 'claude-other' } });
    expect(store.getState().conversationDetails.c1?.model).toBe('claude-other');

    refuse = true;
    await store.getState().setConversationModel('c1', 'gpt-nothing');
    expect(store.getState().conversationDetails.c1?.model).toBe('claude-other');
    expect(shownToasts(store)).toMatchObject([
      { title: 'Could not change the model', message: "Unknown model 'gpt-nothing'" },
    ]);
  });
});

describe('a message that got no reply', () => {
  it('is marked failed in the open conversation when turn-failed names it, with the coded reason', () => {
    const store = createBerthStore(createFakeTransport());
    store.getState().applyConversation(conversation({ messages: [message('u1', 'user', 'hi')] }));
    const hostMessage = {
      code: 'chat-error.api-overloaded',
      params: { status: 529, detail: 'Overloaded', retryAfter: 4 },
    };
    store.getState().applyChatEvent({
      type: 'turn-failed',
      ...base,
      message: 'Overloaded',
      hostMessage,
      failedMessageId: 'u1',
    });
    expect(store.getState().conversationDetails.c1?.messages[0]?.failed).toEqual({
      reason: 'Overloaded',
      reasonMessage: hostMessage,
    });
  });
});
