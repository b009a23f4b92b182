import type { Handlers } from '../../shared/contract';
import type { chatMethods } from '../../shared/contract/chat';
import type { ChatService } from '../chat/chat-service';
import { previewConversation } from '../chat/results/result-preview';

/** Hits a search answers unless told: more than a list shows at once. */
const DEFAULT_SEARCH_HITS = 50;

/** The chat methods of the contract. */
export type ChatHandlers = Pick<Handlers, keyof typeof chatMethods>;

/**
 * Chat methods, served by ChatService (store + engine). Inputs arrive parsed by the router. A conversation goes to a
 * window with its big results as previews (app/chat/results/result-preview.ts); chat.readResult pages the rest.
 */
export function createChatHandlers(chat: ChatService): ChatHandlers {
  return {
    'chat.list': async () => chat.list(),
    'chat.get': async ({ id }) => previewConversation(await chat.get(id)),
    'chat.search': async ({ query, limit }) => chat.search.search(query, limit ?? DEFAULT_SEARCH_HITS),
    'chat.create': async ({ model }) => previewConversation(await chat.create(model)),
    'chat.rename': async ({ id, title }) => chat.rename(id, title),
    'chat.setPinned': async ({ id, pinned }) => chat.setPinned(id, pinned),
    'chat.delete': async ({ id }) => chat.delete(id),
    'chat.restore': async ({ id }) => chat.restore(id),
    'chat.send': async ({ id, text, model, attachments }) => chat.send(id, text, model, attachments),
    'chat.stop': async ({ id }) => chat.stop(id),
    'chat.setModel': async ({ id, model }) => previewConversation(await chat.setModel(id, model)),
    'chat.retry': async ({ id, messageId }) => chat.retry(id, messageId),
    'chat.discardFailed': async ({ id, messageId }) => previewConversation(await chat.discardFailed(id, messageId)),
    'chat.restoreFailed': async ({ id, messageId }) => previewConversation(await chat.restoreFailed(id, messageId)),
    'chat.editAndResend': async ({ id, text, messageId }) => chat.editAndResend(id, text, messageId),
    'chat.compactAndRetry': async ({ id }) => chat.compactAndRetry(id),
    'chat.continue': async ({ id }) => chat.continueReply(id),
    'chat.context': async ({ id }) => chat.contextFill(id),
    'chat.setContextPolicy': async ({ id, policy }) => previewConversation(await chat.setContextPolicy(id, policy)),
    'chat.sendTaskResult': async ({ id, taskId }) => chat.sendTaskResult(id, taskId),
    'chat.setBackgroundTasks': async ({ id, mode }) => previewConversation(await chat.setBackgroundTasks(id, mode)),
    'chat.tools': async ({ id }) => chat.tools(id),
    'chat.setTools': async ({ id, disabledServers, disabledTools }) =>
      previewConversation(await chat.setTools(id, disabledServers, disabledTools)),
    'chat.readResult': async ({ id, toolUseId, offset, limit }) => chat.readResult(id, toolUseId, offset, limit),
    'chat.setToolSearch': async ({ id, mode }) => previewConversation(await chat.setToolSearch(id, mode)),
    'chat.unloadTools': async ({ id, tools }) => previewConversation(await chat.unloadTools(id, tools)),
    'chat.setToolSearchThresholds': async (thresholds) => chat.setToolSearchThresholds(thresholds),
    'chat.setReasoning': async ({ id, level }) => previewConversation(await chat.setReasoning(id, level)),
    'chat.reasoningDefaults': async () => chat.reasoningDefaults(),
    'chat.setReasoningDefaults': async (patch) => chat.setReasoningDefaults(patch),
    'chat.retryNow': async ({ id }) => ({ retrying: chat.retryNow(id) }),
    'chat.editAt': async ({ id, messageId, text }) => chat.editAt(id, messageId, text),
    'chat.regenerate': async ({ id, messageId, model }) => chat.regenerate(id, messageId, model),
    'chat.switchVersion': async ({ id, after, version }) =>
      previewConversation(await chat.switchVersion(id, after, version)),
    'chat.setParams': async ({ id, ...params }) => previewConversation(await chat.setParams(id, params)),
  };
}
