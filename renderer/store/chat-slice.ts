import type { ConversationsDelta } from '../../shared/contract/chat';
import type { ChatEvent, ChatMessage, Conversation, ConversationSummary } from '../../shared/domain/chat';
import type { ChatSlice, LiveToolCall, LiveTurn } from './chat-types';
import type { SliceCreator } from './types';
import { words } from '../i18n/words';

/** A turn as the renderer first hears of it (turn-started may have been missed across a reconnect). */
function freshTurn(turnId: string): LiveTurn {
  return { turnId, running: true, draft: '', toolCalls: {} };
}

function withMessage(conversation: Conversation, message: ChatMessage): Conversation {
  // Snapshot and event can overlap after a reconnect: a message id is kept once.
  if (conversation.messages.some((m) => m.id === message.id)) return conversation;
  return {
    ...conversation,
    messages: [...conversation.messages, message],
    updatedAt: Math.max(conversation.updatedAt, message.createdAt),
  };
}

function updateCall(
  turn: LiveTurn,
  toolUseId: string,
  patch: Partial<LiveToolCall> & Pick<LiveToolCall, 'status'>,
): LiveTurn {
  const current = turn.toolCalls[toolUseId];
  const next: LiveToolCall = current
    ? { ...current, ...patch }
    : { toolUseId, server: patch.server ?? '', tool: patch.tool ?? '', input: patch.input ?? {}, ...patch };
  return { ...turn, toolCalls: { ...turn.toolCalls, [toolUseId]: next } };
}

/** The saved message now holds these results: the live copies go (a result can be large). */
function withoutSavedResults(turn: LiveTurn, message: ChatMessage): LiveTurn {
  let toolCalls = turn.toolCalls;
  for (const block of message.content) {
    const call = block.type === 'tool_result' ? toolCalls[block.toolUseId] : undefined;
    if (call?.result === undefined) continue;
    const { result: _saved, ...rest } = call;
    toolCalls = { ...toolCalls, [call.toolUseId]: rest };
  }
  return toolCalls === turn.toolCalls ? turn : { ...turn, toolCalls };
}

/** The host's order: newest first, ties by id. */
/** The list's order: pinned first, then newest first (as the host's chat.list). */
function comesBefore(a: ConversationSummary, b: ConversationSummary): boolean {
  const aPinned = a.pinned === true;
  if (aPinned !== (b.pinned === true)) return aPinned;
  return a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id);
}

/**
 * The list after one delta from the host: each changed summary replaces its
 * old entry at its sorted place (binary search), removed ids go. Pure and
 * linear in the list, so a saved message does not re-sort 5,000 rows.
 */
export function applyConversationsDelta(
  list: readonly ConversationSummary[],
  delta: ConversationsDelta,
): ConversationSummary[] {
  // The usual delta, twice per message sent: one conversation saved a message and keeps its place
  // (the open one, already first). A copy with one entry swapped, no set of ids, no search.
  const [only] = delta.changed;
  if (only !== undefined && delta.changed.length === 1 && delta.removed.length === 0) {
    const at = list.findIndex((summary) => summary.id === only.id);
    const before = list[at - 1];
    const after = list[at + 1];
    if (
      at >= 0 &&
      (before === undefined || comesBefore(before, only)) &&
      (after === undefined || comesBefore(only, after))
    ) {
      const next = list.slice();
      next[at] = only;
      return next;
    }
  }
  const gone = new Set([...delta.removed, ...delta.changed.map((summary) => summary.id)]);
  const next = gone.size === 0 ? [...list] : list.filter((summary) => !gone.has(summary.id));
  for (const summary of delta.changed) {
    let low = 0;
    let high = next.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comesBefore(next[middle]!, summary)) low = middle + 1;
      else high = middle;
    }
    next.splice(low, 0, summary);
  }
  return next;
}

/** The live turn after one event; pure, so the event mapping is tested without a store. */
export function reduceLiveTurn(current: LiveTurn | undefined, event: ChatEvent): LiveTurn {
  // A background task's end belongs to no turn (applyChatEvent puts its message in the conversation).
  if (event.type === 'task-finished') return current ?? { ...freshTurn(''), running: false };
  if (event.type === 'turn-started') {
    return {
      turnId: event.turnId,
      running: true,
      model: event.model,
      toolCount: event.toolCount,
      ...(event.toolCountWarning !== undefined ? { toolCountWarning: event.toolCountWarning } : {}),
      ...(event.toolCountWarningMessage !== undefined
        ? { toolCountWarningMessage: event.toolCountWarningMessage }
        : {}),
      draft: '',
      toolCalls: {},
    };
  }
  // A call's task that went on in the background reports on after its turn ended: a newer turn is not replaced by it.
  const late = event.type === 'tool-task' || event.type === 'tool-progress' || event.type === 'tool-call-waiting';
  if (late && current !== undefined && current.turnId !== event.turnId) return current;
  const turn = current && current.turnId === event.turnId ? current : freshTurn(event.turnId);
  switch (event.type) {
    case 'turn-notice': {
      // The model is asked again (without tools or images): what it streamed before refusing is not part of the reply.
      const notices = turn.notices ?? [];
      const notice = { message: event.message, ...(event.hostMessage ? { hostMessage: event.hostMessage } : {}) };
      const known = notices.some((seen) => seen.message === event.message);
      return { ...turn, notices: known ? notices : [...notices, notice], draft: '' };
    }
    case 'thinking-delta': {
      const before = turn.thinking;
      return {
        ...turn,
        thinking: {
          text: (before?.text ?? '') + event.text,
          ...(before?.redacted === true || event.redacted === true ? { redacted: true } : {}),
          done: false,
        },
      };
    }
    case 'text-delta':
      return {
        ...turn,
        draft: turn.draft + event.text,
        ...(turn.thinking !== undefined && !turn.thinking.done ? { thinking: { ...turn.thinking, done: true } } : {}),
      };
    case 'tool-call-pending':
      return updateCall(turn, event.toolUseId, {
        status: 'awaiting-consent',
        server: event.server,
        tool: event.tool,
        input: event.input,
      });
    case 'tool-call-started':
      return updateCall(turn, event.toolUseId, {
        status: 'running',
        server: event.server,
        tool: event.tool,
        input: event.input,
        ...(event.app ? { app: event.app } : {}),
      });
    case 'tool-progress': {
      // Late progress (the server reporting after Stop) must not bring a finished card back to "Running".
      if (turn.toolCalls[event.toolUseId]?.status === 'finished') return turn;
      const progress = {
        progress: event.progress,
        ...(event.total !== undefined ? { total: event.total } : {}),
        ...(event.message !== undefined ? { message: event.message } : {}),
      };
      return updateCall(turn, event.toolUseId, { status: 'running', progress });
    }
    case 'tool-call-finished':
      return updateCall(turn, event.toolUseId, {
        status: 'finished',
        isError: event.isError,
        denied: event.denied,
        waitingFor: undefined,
        ...(event.result !== undefined ? { result: event.result } : {}),
      });
    case 'tool-task': {
      const task = {
        id: event.taskId,
        status: event.status,
        ...(event.statusMessage !== undefined ? { statusMessage: event.statusMessage } : {}),
      };
      return updateCall(turn, event.toolUseId, { status: turn.toolCalls[event.toolUseId]?.status ?? 'running', task });
    }
    case 'tool-call-waiting':
      return updateCall(turn, event.toolUseId, {
        status: turn.toolCalls[event.toolUseId]?.status ?? 'running',
        waitingFor: event.pendingId ?? undefined,
      });
    case 'message-saved': {
      // The streamed text (and reasoning) is now part of a saved message: both start over for the next one.
      if (event.message.role !== 'assistant') return withoutSavedResults(turn, event.message);
      const { thinking: _saved, ...rest } = turn;
      return { ...rest, draft: '' };
    }
    case 'turn-waiting': {
      const { type: _type, conversationId: _conversation, turnId: _turn, ...wait } = event;
      return { ...turn, waiting: wait };
    }
    case 'turn-resumed': {
      const { waiting: _over, ...rest } = turn;
      return rest;
    }
    case 'turn-finished': {
      const { thinking: _dropped, waiting: _over, ...rest } = turn;
      return { ...rest, running: false, draft: '', stopReason: event.stopReason };
    }
    case 'turn-failed': {
      const { thinking: _dropped, waiting: _over, ...rest } = turn;
      return {
        ...rest,
        running: false,
        draft: '',
        error: event.message,
        ...(event.hostMessage ? { errorMessage: event.hostMessage } : {}),
        ...(event.contextFull === true ? { contextFull: true } : {}),
      };
    }
  }
}

export const createChatSlice: SliceCreator<ChatSlice> = (transport) => (set, get) => ({
  conversations: [],
  conversationsLoaded: false,
  conversationDetails: {},
  activeConversationId: undefined,
  messageFocus: undefined,
  liveTurns: {},
  conversationTools: {},
  contextFills: {},

  applyConversationsChanged(list) {
    set((s) => {
      const stillThere = s.activeConversationId !== undefined && list.some((c) => c.id === s.activeConversationId);
      return {
        conversations: list,
        conversationsLoaded: true,
        activeConversationId: stillThere ? s.activeConversationId : list[0]?.id,
      };
    });
  },
  applyConversationsDelta(delta) {
    set((s) => {
      const conversations = applyConversationsDelta(s.conversations, delta);
      const stillThere = s.activeConversationId !== undefined && !delta.removed.includes(s.activeConversationId);
      const conversationDetails = renamedDetails(s.conversationDetails, delta.changed);
      return {
        conversations,
        conversationDetails,
        activeConversationId: stillThere ? s.activeConversationId : conversations[0]?.id,
      };
    });
  },
  applyChatEvent(event) {
    set((s) => {
      const id = event.conversationId;
      // A background task's end comes outside any turn: the conversation gets its message, the live turn stays as it is.
      if (event.type === 'task-finished') {
        const detail = s.conversationDetails[id];
        return detail === undefined
          ? {}
          : { conversationDetails: { ...s.conversationDetails, [id]: withMessage(detail, event.message) } };
      }
      const liveTurns = { ...s.liveTurns, [id]: reduceLiveTurn(s.liveTurns[id], event) };
      const detail = s.conversationDetails[id];
      if (event.type === 'turn-failed' && event.failedMessageId !== undefined && detail !== undefined) {
        // The host saved the mark too: the row shows it now as a reload would.
        const failed = { reason: event.message, ...(event.hostMessage ? { reasonMessage: event.hostMessage } : {}) };
        const messages = detail.messages.map((m) => (m.id === event.failedMessageId ? { ...m, failed } : m));
        return { liveTurns, conversationDetails: { ...s.conversationDetails, [id]: { ...detail, messages } } };
      }
      if (event.type !== 'message-saved') return { liveTurns };
      if (!detail) return { liveTurns };
      return { liveTurns, conversationDetails: { ...s.conversationDetails, [id]: withMessage(detail, event.message) } };
    });
  },
  applyLoadedToolsChanged({ id, loadedTools }) {
    // Only an open conversation keeps its details; chat.get brings the list with the rest when one opens.
    set((s) => {
      const detail = s.conversationDetails[id];
      return detail === undefined
        ? {}
        : { conversationDetails: { ...s.conversationDetails, [id]: { ...detail, loadedTools } } };
    });
  },
  applyConversation(conversation) {
    set((s) => ({ conversationDetails: { ...s.conversationDetails, [conversation.id]: conversation } }));
  },
  async loadConversations() {
    const result = await transport.call('chat.list', {});
    if (!result.ok) {
      get().toastFailure(words('chat.toast.loadListFailed'), result);
      return;
    }
    get().applyConversationsChanged(result.value);
    const active = get().activeConversationId;
    if (active !== undefined) await get().openConversation(active);
  },
  async openConversation(id) {
    set({ activeConversationId: id });
    const result = await transport.call('chat.get', { id });
    if (result.ok) get().applyConversation(result.value);
    else get().toastFailure(words('chat.toast.openFailed'), result);
  },
  async openConversationAt(id, messageId) {
    set({ messageFocus: { conversationId: id, messageId } });
    await get().openConversation(id);
  },
  clearMessageFocus() {
    set({ messageFocus: undefined });
  },
  async createConversation(model) {
    const result = await transport.call('chat.create', model === undefined ? {} : { model });
    if (result.ok) {
      const conversation = result.value;
      get().applyConversation(conversation);
      set((s) => ({
        activeConversationId: conversation.id,
        conversations: s.conversations.some((c) => c.id === conversation.id)
          ? s.conversations
          : [
              {
                id: conversation.id,
                title: conversation.title,
                createdAt: conversation.createdAt,
                updatedAt: conversation.updatedAt,
                model: conversation.model,
                messageCount: 0,
              },
              ...s.conversations,
            ],
      }));
    }
    return result;
  },
  async setConversationPinned(id, pinned) {
    const result = await transport.call('chat.setPinned', { id, pinned });
    if (result.ok) get().applyConversationsDelta({ changed: [result.value], removed: [] });
    else {
      const title = get().conversations.find((c) => c.id === id)?.title ?? '';
      get().toastFailure(words(pinned ? 'chat.toast.pinFailed' : 'chat.toast.unpinFailed', { title }), result);
    }
    return result;
  },
  searchConversations(query, limit) {
    return transport.call('chat.search', limit === undefined ? { query } : { query, limit });
  },
  async renameConversation(id, title) {
    const before = get().conversations.find((c) => c.id === id);
    // Shown at once; the host's answer (or its list event) settles it.
    const retitle = (from: string, to: string) =>
      set((s) => ({
        conversations: s.conversations.map((c) => (c.id === id && c.title === from ? { ...c, title: to } : c)),
        conversationDetails:
          s.conversationDetails[id]?.title === from
            ? { ...s.conversationDetails, [id]: { ...s.conversationDetails[id], title: to } }
            : s.conversationDetails,
      }));
    if (before !== undefined) retitle(before.title, title);
    const result = await transport.call('chat.rename', { id, title });
    if (result.ok) {
      get().applyConversationsDelta({ changed: [result.value], removed: [] });
    } else if (before !== undefined) {
      // Only if nothing newer replaced the optimistic title meanwhile.
      retitle(title, before.title);
      get().toastFailure(words('chat.toast.renameFailed', { title: before.title }), result);
    }
    return result;
  },
  async deleteConversation(id) {
    const title = get().conversations.find((c) => c.id === id)?.title;
    const result = await transport.call('chat.delete', { id });
    if (!result.ok) {
      get().toastFailure(
        title === undefined ? words('chat.toast.deleteFailedUnknown') : words('chat.toast.deleteFailed', { title }),
        result,
      );
      return;
    }
    // The list event normally follows; this keeps the screen right if it comes late.
    get().applyConversationsChanged(get().conversations.filter((c) => c.id !== id));
    get().pushToast({
      tone: 'info',
      title: title === undefined ? words('chat.toast.deletedUnknown') : words('chat.toast.deleted', { title }),
      action: { label: words('chat.toast.undo'), run: () => void get().restoreConversation(id) },
    });
  },
  async restoreConversation(id) {
    const result = await transport.call('chat.restore', { id });
    if (!result.ok) {
      get().toastFailure(words('chat.toast.restoreFailed'), result);
      return;
    }
    const summary = result.value;
    set((s) => ({
      conversations: s.conversations.some((c) => c.id === id)
        ? s.conversations
        : applyConversationsDelta(s.conversations, { changed: [summary], removed: [] }),
    }));
    await get().openConversation(id);
  },
  async sendMessage(id, text, model, attachments) {
    return transport.call('chat.send', {
      id,
      text,
      ...(model !== undefined ? { model } : {}),
      ...(attachments !== undefined && attachments.length > 0 ? { attachments } : {}),
    });
  },
  async stopTurn(id) {
    const result = await transport.call('chat.stop', { id });
    if (!result.ok) get().toastFailure(words('chat.toast.stopFailed'), result);
  },
  async retryNow(id) {
    const result = await transport.call('chat.retryNow', { id });
    if (!result.ok) get().toastFailure(words('chat.toast.retryFailed'), result);
  },
  async retryTurn(id) {
    const result = await transport.call('chat.retry', { id });
    if (!result.ok) {
      get().toastFailure(words('chat.toast.retryFailed'), result);
      return;
    }
    // The host dropped the replies after the last message: read the conversation as it is now.
    await get().openConversation(id);
  },
  async continueTurn(id) {
    const result = await transport.call('chat.continue', { id });
    if (!result.ok) get().toastFailure(words('chat.toast.continueFailed'), result);
  },
  async compactAndRetry(id) {
    const result = await transport.call('chat.compactAndRetry', { id });
    if (!result.ok) {
      get().toastFailure(words('chat.toast.compactFailed'), result);
      return;
    }
    // The host dropped the failed reply: read the conversation as it is now.
    await get().openConversation(id);
  },
  async loadContextFill(id) {
    const result = await transport.call('chat.context', { id });
    // The meter is a hint: a failure leaves the last one (or none) rather than a toast per message.
    if (result.ok) set((s) => ({ contextFills: { ...s.contextFills, [id]: result.value } }));
  },
  async setContextPolicy(id, policy) {
    const result = await transport.call('chat.setContextPolicy', { id, policy });
    if (!result.ok) return get().toastFailure(words('chat.toast.contextPolicyFailed'), result);
    get().applyConversation(result.value);
    await get().loadContextFill(id);
  },
  async sendTaskResult(id, taskId) {
    const result = await transport.call('chat.sendTaskResult', { id, taskId });
    if (!result.ok) get().toastFailure(words('chat.toast.taskResultFailed'), result);
  },
  async setBackgroundTasks(id, mode) {
    const result = await transport.call('chat.setBackgroundTasks', { id, mode });
    if (!result.ok) return get().toastFailure(words('chat.toast.backgroundTasksFailed'), result);
    get().applyConversation(result.value);
  },
  async retryFailed(id, messageId) {
    const result = await transport.call('chat.retry', { id, messageId });
    if (!result.ok) return get().toastFailure(words('chat.toast.retryFailed'), result);
    // The host moved the message to the end: read the conversation as it is now.
    await get().openConversation(id);
  },
  async discardFailed(id, messageId) {
    const result = await transport.call('chat.discardFailed', { id, messageId });
    if (!result.ok) return get().toastFailure(words('chat.toast.discardFailed'), result);
    get().applyConversation(result.value);
    get().pushToast({
      tone: 'info',
      title: words('chat.toast.failedDiscarded'),
      action: {
        label: words('chat.toast.undo'),
        run: () =>
          void transport.call('chat.restoreFailed', { id, messageId }).then((restored) => {
            if (restored.ok) get().applyConversation(restored.value);
            else get().toastFailure(words('chat.toast.restoreMessageFailed'), restored);
          }),
      },
    });
  },
  async editAndResend(id, text, messageId) {
    const result = await transport.call('chat.editAndResend', {
      id,
      text,
      ...(messageId !== undefined ? { messageId } : {}),
    });
    if (result.ok) {
      // The old message and its replies are gone on the host; reload, the new message arrives as an event.
      const fresh = await transport.call('chat.get', { id });
      if (fresh.ok) get().applyConversation(fresh.value);
    }
    return result;
  },
  async editAt(id, messageId, text) {
    const result = await transport.call('chat.editAt', { id, messageId, text });
    if (result.ok) {
      // The host cut the conversation at the message (the old branch kept aside): reload, the new one arrives as events.
      const fresh = await transport.call('chat.get', { id });
      if (fresh.ok) get().applyConversation(fresh.value);
    }
    return result;
  },
  async regenerate(id, messageId, model) {
    const result = await transport.call('chat.regenerate', {
      id,
      messageId,
      ...(model !== undefined ? { model } : {}),
    });
    if (!result.ok) return get().toastFailure(words('chat.toast.regenerateFailed'), result);
    const fresh = await transport.call('chat.get', { id });
    if (fresh.ok) get().applyConversation(fresh.value);
  },
  async switchVersion(id, after, version) {
    const result = await transport.call('chat.switchVersion', { id, after, version });
    if (!result.ok) return get().toastFailure(words('chat.toast.switchVersionFailed'), result);
    get().applyConversation(result.value);
  },
  async loadConversationTools(id) {
    const result = await transport.call('chat.tools', { id });
    if (result.ok) set((s) => ({ conversationTools: { ...s.conversationTools, [id]: result.value } }));
    else get().toastFailure(words('chat.toast.toolsLoadFailed'), result);
  },
  async setConversationTools(id, disabledServers, disabledTools) {
    const result = await transport.call('chat.setTools', { id, disabledServers, disabledTools });
    if (!result.ok) {
      get().toastFailure(words('chat.toast.toolsChangeFailed'), result);
      return;
    }
    get().applyConversation(result.value);
    await get().loadConversationTools(id);
  },
  async setToolSearch(id, mode) {
    const result = await transport.call('chat.setToolSearch', { id, mode });
    if (!result.ok) return get().toastFailure(words('chat.toast.toolSearchFailed'), result);
    get().applyConversation(result.value);
    await get().loadConversationTools(id);
  },
  async loadReasoningDefaults() {
    const result = await transport.call('chat.reasoningDefaults', {});
    if (result.ok) set({ reasoningDefaults: result.value });
  },
  async setConversationModel(id, model) {
    const before = get().conversationDetails[id];
    // Shown at once; the host's answer (or the model it still has) settles it.
    if (before !== undefined) get().applyConversation({ ...before, model });
    const result = await transport.call('chat.setModel', { id, model });
    if (result.ok) return get().applyConversation(result.value);
    const now = get().conversationDetails[id];
    if (before !== undefined && now?.model === model) get().applyConversation({ ...now, model: before.model });
    get().toastFailure(words('chat.toast.modelFailed'), result);
  },
  async setReasoning(id, level) {
    const result = await transport.call('chat.setReasoning', { id, level });
    if (!result.ok) return get().toastFailure(words('chat.toast.reasoningFailed'), result);
    get().applyConversation(result.value);
  },
  async setConversationParams(id, params) {
    // A refusal is shown in the dialog, beside its field, not as a toast.
    const result = await transport.call('chat.setParams', { id, ...params });
    if (result.ok) get().applyConversation(result.value);
    return result;
  },
  async setReasoningDefaults(patch) {
    const result = await transport.call('chat.setReasoningDefaults', patch);
    if (!result.ok) return get().toastFailure(words('chat.toast.reasoningDefaultsFailed'), result);
    set({ reasoningDefaults: result.value });
  },
  async unloadTools(id, tools) {
    const result = await transport.call('chat.unloadTools', { id, tools });
    if (!result.ok) return get().toastFailure(words('chat.toast.unloadToolFailed'), result);
    // The answer carries the loaded list the strip reads; nothing else the person sees changed.
    get().applyConversation(result.value);
  },
  async setToolSearchThresholds(id, countAbove, shareAbove) {
    const result = await transport.call('chat.setToolSearchThresholds', { countAbove, shareAbove });
    if (!result.ok) get().toastFailure(words('chat.toast.thresholdsFailed'), result);
    else await get().loadConversationTools(id);
    return result.ok;
  },
});

/** Open conversations keep the title the list shows. */
function renamedDetails(
  details: Record<string, Conversation>,
  changed: readonly ConversationSummary[],
): Record<string, Conversation> {
  let next = details;
  for (const summary of changed) {
    const detail = next[summary.id];
    if (detail !== undefined && detail.title !== summary.title)
      next = { ...next, [summary.id]: { ...detail, title: summary.title } };
  }
  return next;
}
