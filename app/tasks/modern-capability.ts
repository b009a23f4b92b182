import type { Client } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';

/**
 * Declares the 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`,
 * value `{}`: the extension defines no settings) in the client's
 * capabilities, for the supervisor's `clientSetup` (before connect).
 *
 * In this era capabilities travel per request, in each request's `_meta`, and
 * a server may answer any `tools/call` that declares the extension with a
 * task. ext-tasks already declares it on the requests it sends (`tools/call`,
 * `tasks/*` through modern-dispatch.ts), which is all a task needs. Declaring
 * it here too puts it on every request the SDK Client sends, its own
 * `callTool` included, and that one cannot read a task (the SDK refuses
 * `resultType: "task"`): call this only once every modern-era tool call goes
 * through the ext-tasks session.
 */
export function declareTasksExtension(client: Client): void {
  client.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID_V2]: {} } });
}
