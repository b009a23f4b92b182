import type { Client } from '@modelcontextprotocol/client';
import { APP_UI_EXTENSION_ID, APP_UI_MIME_TYPE } from '../../shared/domain/app-ui';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';

/**
 * Declares the MCP Apps extension (`io.modelcontextprotocol/ui`) with the one
 * MIME type Berth renders, on a client before it connects: in the initialize
 * era it goes out in `initialize`, in the 2026-07-28 era in every request's
 * `_meta` capabilities. A server may offer its UI tools only to a host that
 * declares it.
 */
export function declareAppsExtension(client: Client): void {
  client.registerCapabilities({ extensions: { [APP_UI_EXTENSION_ID]: { mimeTypes: [APP_UI_MIME_TYPE] } } });
}

/** The declaration as a lifecycle listener: every client Berth creates gets it. */
export const appsExtensionDeclaration: ServerLifecycleListener = {
  clientSetup: (_server, client) => declareAppsExtension(client),
};
