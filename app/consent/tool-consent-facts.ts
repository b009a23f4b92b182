import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { serverIdentity } from './approval-fingerprint';
import type { ToolCallConsentRequest } from './consent-broker';

/**
 * What the consent broker judges a call of `tool` on by, as the server is now:
 * its identity (the config it runs with: a permission given to another
 * command or address does not apply) and the tool as it lists it now (a
 * permission given to another description or schema does not apply either).
 * The model's calls (app/chat/chat-service.ts) and apps' calls (app/apps) use the same.
 */
export function toolConsentFacts(
  state: ServerState,
  tool: string,
): Pick<
  ToolCallConsentRequest,
  'serverIdentity' | 'listedName' | 'toolTitle' | 'description' | 'inputSchema' | 'annotations'
> {
  const info = serverTools(state).find((entry) => entry.name === tool);
  return {
    serverIdentity: serverIdentity(state.config),
    ...(info?.listedName !== undefined ? { listedName: info.listedName } : {}),
    ...(info?.title !== undefined ? { toolTitle: info.title } : {}),
    ...(info?.description !== undefined ? { description: info.description } : {}),
    ...(info?.inputSchema !== undefined ? { inputSchema: info.inputSchema } : {}),
    ...(info?.annotations !== undefined ? { annotations: info.annotations } : {}),
  };
}
