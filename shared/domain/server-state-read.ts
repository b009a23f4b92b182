import type { ServerState, ToolInfo } from './server';

// What a server's state says, read by its status. A file of its own, with no zod, so the renderer's first screen
// reads states without loading the schemas in server.ts.

/** Why the server is stopped, failed or waiting to restart, in words; none while it starts or runs. */
export function serverReason(state: ServerState): string | undefined {
  return state.status === 'ready' || state.status === 'starting' ? undefined : state.reason;
}

/** The tools of a ready server; none otherwise (or for no server). */
export function serverTools(state: ServerState | undefined): ToolInfo[] {
  return state?.status === 'ready' ? state.tools : [];
}
