import type { Handlers } from '../../shared/contract';
import type { appsMethods } from '../../shared/contract/apps';
import { HostError } from '../../shared/result';

/** The MCP Apps methods of the contract. */
export type AppsHandlers = Pick<Handlers, keyof typeof appsMethods>;

/** Until the apps service is wired in, every apps.* call says so (never a silent empty answer). */
export function createUnwiredAppsHandlers(): AppsHandlers {
  const unwired = async (): Promise<never> => {
    throw new HostError('NOT_READY', 'MCP Apps are not available in this build yet.');
  };
  return {
    'apps.sandbox': unwired,
    'apps.resource': unwired,
    'apps.list': unwired,
    'apps.callTool': unwired,
    'apps.log': unwired,
    'apps.openExternal': unwired,
    'apps.setModelContext': unwired,
    'apps.modelContext': unwired,
  };
}
