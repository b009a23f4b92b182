import type { Handlers } from '../../shared/contract';
import type { appsMethods } from '../../shared/contract/apps';
import type { AppsService } from '../apps/apps-service';

/** The MCP Apps methods of the contract. */
export type AppsHandlers = Pick<Handlers, keyof typeof appsMethods>;

/** apps.*: every request of an app's card, through the AppsService (its rules live there). */
export function createAppsHandlers(apps: AppsService): AppsHandlers {
  return {
    'apps.sandbox': async () => apps.sandbox(),
    'apps.resource': ({ server, uri }) => apps.resource(server, uri),
    'apps.list': async ({ server }) => apps.list(server),
    'apps.callTool': ({ origin, tool, arguments: args, call }) => apps.callTool(origin, tool, args, call),
    'apps.cancelCall': async ({ instance, callId }) => {
      apps.cancelCall(instance, callId);
      return {};
    },
    'apps.appGone': async ({ instance }) => {
      apps.appGone(instance);
      return {};
    },
    'apps.log': async ({ origin, level, logger, text }) => {
      apps.log(origin, level, logger, text);
      return {};
    },
    'apps.openExternal': async ({ origin, url }) => {
      await apps.openExternal(origin, url);
      return {};
    },
    'apps.setModelContext': async ({ origin, content, structuredContent }) => {
      await apps.setModelContext(origin, content, structuredContent);
      return {};
    },
    'apps.modelContext': async ({ conversationId }) => apps.modelContext(conversationId),
  };
}
