import { createChatHandlers } from '../../bridge/handlers-chat';
import { createInstructionsSettingsHandlers } from '../../bridge/handlers-instructions-settings';
import { createResultSettingsHandlers } from '../../bridge/handlers-result-settings';
import { ChatService } from '../../chat/chat-service';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** Conversations with the model and the tools of every connected server, and the host tools modules registered. */
export const chatModule: HostModule<HostContext> = {
  name: 'chat',
  phase: 'loaded',
  async open(context, scope) {
    const { services } = context;
    const pending = services.get('pending');
    const redaction = services.get('redaction');
    const skills = services.get('skills');
    const chat = services.provide(
      'chat',
      await ChatService.open({
        configDir: context.paths.configDir,
        stateDir: context.paths.stateDir,
        seenConversationFiles: services.get('privateFiles').identities,
        supervisor: services.get('supervisor'),
        consent: services.get('consent'),
        toolCalls: services.get('toolCalls'),
        apps: services.get('apps'),
        settings: services.get('settings'),
        providers: services.get('providers'),
        events: context.events,
        logs: services.get('logs'),
        redact: (text) => redaction.redact(text),
        // Tool search and the result reader register themselves in ChatService.
        hostToolProviders: () => context.hostTools.map((provider) => provider()),
        onConversationDeleted: (conversationId) => skills.forgetConversation(conversationId),
        // The server may not cancel what it asked for when its tool call is cancelled: nothing keeps waiting for a stopped turn.
        onTurnStopped: (conversationId) =>
          pending.withdrawWhere(
            (request) => request.conversationId === conversationId && request.kind !== 'tool-call',
            'the chat reply that caused this was stopped',
          ),
        reportError: context.reportBug,
        ...(context.options.chatRetries !== undefined ? { retryPolicy: context.options.chatRetries } : {}),
      }),
    );
    // A chat call's task that went on in the background (or was picked up after a restart) ends in its conversation.
    services.get('toolTasks').onFinished((end) => void chat.taskEnded(end));
    scope.onShutdown(() => chat.close());
    // A server's instructions and its results' cap are what the chat sends the model of it.
    context.bridgeHandlers.register(scope.module, () => {
      const perServer = {
        settings: services.get('settings'),
        servers: services.get('supervisor'),
        events: context.events,
      };
      return {
        ...createChatHandlers(chat),
        ...createInstructionsSettingsHandlers(perServer),
        ...createResultSettingsHandlers(perServer),
      };
    });
  },
};
