import type { AppModelContext } from '../../shared/domain/app-ui';
import type { McpContentBlock } from '../../shared/domain/chat';
import { appsError } from '../../shared/domain/apps-errors';
import { HostError } from '../../shared/result';

/** One card's context as JSON may be this big; more is refused (the app is told, the chat is not flooded). */
export const MAX_APP_CONTEXT_BYTES = 64 * 1024;

/**
 * What apps asked to add to the model's context (`ui/update-model-context`),
 * per conversation and card. Each update replaces that card's context; empty
 * content (and no structured content) clears it. Kept in memory for the
 * host's run: the app sends it again when its card renders after a restart.
 */
export class AppModelContexts {
  private readonly byConversation = new Map<string, Map<string, AppModelContext>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Replace (or clear) one card's context; returns the conversation's contexts after the change. */
  set(
    conversationId: string,
    toolUseId: string,
    server: string,
    content: McpContentBlock[],
    structuredContent?: Record<string, unknown>,
  ): AppModelContext[] {
    const cards = this.byConversation.get(conversationId) ?? new Map<string, AppModelContext>();
    if (content.length === 0 && structuredContent === undefined) {
      cards.delete(toolUseId);
    } else {
      const context: AppModelContext = {
        conversationId,
        toolUseId,
        server,
        content,
        ...(structuredContent !== undefined ? { structuredContent } : {}),
        updatedAt: this.now(),
      };
      const bytes = Buffer.byteLength(JSON.stringify(context), 'utf8');
      if (bytes > MAX_APP_CONTEXT_BYTES) {
        throw HostError.coded(
          'INVALID_INPUT',
          appsError('apps-errors.context-too-large', {
            size: Math.ceil(bytes / 1024),
            max: MAX_APP_CONTEXT_BYTES / 1024,
          }),
        );
      }
      cards.delete(toolUseId);
      cards.set(toolUseId, context);
    }
    if (cards.size === 0) this.byConversation.delete(conversationId);
    else this.byConversation.set(conversationId, cards);
    return this.list(conversationId);
  }

  /** The conversation's contexts, oldest update first. */
  list(conversationId: string): AppModelContext[] {
    return [...(this.byConversation.get(conversationId)?.values() ?? [])];
  }

  /** The conversation is gone: so are its cards' contexts. */
  forget(conversationId: string): boolean {
    return this.byConversation.delete(conversationId);
  }

  /**
   * The text appended to what the model is sent in this conversation's next
   * turn: one labelled block per card, so the model knows the words are an
   * app's, not the person's. Undefined when no app added anything.
   */
  turnText(conversationId: string): string | undefined {
    const contexts = this.list(conversationId);
    if (contexts.length === 0) return undefined;
    return contexts.map(contextText).join('\n\n');
  }
}

function contextText(context: AppModelContext): string {
  const parts = context.content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource_link':
        return `[link to ${block.uri}]`;
      case 'resource':
        return 'text' in block.resource && typeof block.resource.text === 'string'
          ? block.resource.text
          : `[resource ${block.resource.uri}]`;
      default:
        return `[${block.type} content]`;
    }
  });
  if (context.structuredContent !== undefined) parts.push(JSON.stringify(context.structuredContent));
  return `Context from the ${context.server} app (card ${context.toolUseId}), not written by the user:\n${parts.join('\n')}`;
}
