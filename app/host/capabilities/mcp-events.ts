import { createMcpEventsHandlers } from '../../bridge/handlers-mcp-events';
import type { EventConversations } from '../../mcp-events/event-actions';
import { McpEvents } from '../../mcp-events/mcp-events';
import type { ChatService } from '../../chat/chat-service';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The chat as events use it: a conversation per subscription, a turn sent and waited for. */
function eventConversations(chat: ChatService): EventConversations {
  return {
    create: async (title) => {
      const { id } = await chat.create(undefined);
      await chat.rename(id, title);
      return id;
    },
    exists: (id) => chat.list().some((conversation) => conversation.id === id),
    send: async (id, text) => {
      await chat.send(id, text, undefined);
      await chat.turnDone(id);
    },
  };
}

/** MCP Events (a draft extension): servers' event types, the person's subscriptions, the Inbox, events that start work. */
export const mcpEventsModule: HostModule<HostContext> = {
  name: 'mcp-events',
  phase: 'features',
  async open(context, scope) {
    const { services, events } = context;
    const mcpEvents = services.provide(
      'mcpEvents',
      new McpEvents({
        lifecycle: context.lifecycle,
        servers: services.get('supervisor'),
        stateDir: context.paths.stateDir,
        // Chat opens in a later phase; an event asks for it only when its subscription starts a conversation.
        conversations: () => {
          const chat = services.find('chat');
          return chat === undefined ? undefined : eventConversations(chat);
        },
        onCatalog: (catalog) => events.emit('events.changed', catalog),
        onInbox: (unread) => events.emit('events.inboxChanged', { unread }),
        onNotice: (notice) => events.emit('events.notice', notice),
        warn: context.warn,
      }),
    );
    await mcpEvents.load();
    scope.onStopping(() => mcpEvents.shuttingDown());
    context.bridgeHandlers.register(scope.module, () => createMcpEventsHandlers(mcpEvents));
  },
};
