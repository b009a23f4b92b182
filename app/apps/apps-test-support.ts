/**
 * Test-only (never imported by host code): a supervisor stand-in for the apps
 * service, with servers whose states, tools and answers each test sets.
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { ServerState, ServerStateOf, ToolInfo } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverConfig } from '../servers/test-support';
import type { ServerRequest } from '../servers/supervised-server';
import type { AppsServers } from './apps-service';

export const APP_URI = 'ui://get-time/mcp-app.html';
export const APP_MIME = 'text/html;profile=mcp-app';

/** A ServerState for tests: ready since `readySince`, with these tools. */
export function serverState(
  name: string,
  tools: ToolInfo[],
  overrides: Partial<ServerStateOf<'ready'>> = {},
): ServerState {
  return {
    name,
    config: serverConfig({ command: 'node', args: [`${name}.js`] }),
    status: 'ready',
    tools,
    restartCount: 0,
    readySince: 1,
    transport: 'stdio',
    ...overrides,
  };
}

/** The same server while it does not run. */
export function notRunningState(name: string, status: 'stopped' | 'starting' | 'crashed'): ServerState {
  const config = serverConfig({ command: 'node', args: [`${name}.js`] });
  return status === 'crashed'
    ? { name, config, status, reason: 'exited with code 1', restartCount: 0 }
    : { name, config, status, restartCount: 0 };
}

/** A tool with this `ui` (default: an app at APP_URI; null: no UI metadata at all). */
export function uiTool(name: string, ui: ToolInfo['ui'] | null = { resourceUri: APP_URI }): ToolInfo {
  return {
    name,
    description: `${name} things`,
    inputSchema: { type: 'object', properties: {} },
    ...(ui !== null ? { ui } : {}),
  };
}

/** Answers each request of a server with `answer(method, params)` and counts them. */
export class FakeAppServers implements AppsServers {
  readonly states = new Map<string, ServerState>();
  readonly requests: Array<{ server: string; method: string; params: Record<string, unknown> }> = [];
  readonly toolCalls: Array<{ server: string; tool: string; args: Record<string, unknown> }> = [];
  answer: (server: string, method: string, params: Record<string, unknown>) => unknown = () => ({
    contents: [{ uri: APP_URI, mimeType: APP_MIME, text: '<p>app</p>' }],
  });
  toolAnswer: (server: string, tool: string, args: Record<string, unknown>) => CallToolResult = (_server, tool) => ({
    content: [{ type: 'text', text: `${tool} ran` }],
  });

  set(state: ServerState): void {
    this.states.set(state.name, state);
  }

  get(name: string): ServerState | undefined {
    return this.states.get(name);
  }

  async request<T>(
    name: string,
    request: ServerRequest,
    send: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    if (!this.states.has(name)) throw new HostError('NOT_FOUND', `no server named '${name}'`);
    const client = {
      request: async ({ method, params }: { method: string; params: Record<string, unknown> }) => {
        this.requests.push({ server: name, method, params });
        return this.answer(name, method, params);
      },
    } as unknown as Client;
    void request;
    return send(client, 1000);
  }

  async callTool(name: string, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
    this.toolCalls.push({ server: name, tool, args });
    return this.toolAnswer(name, tool, args);
  }
}
