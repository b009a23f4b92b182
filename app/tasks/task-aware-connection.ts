import type { CallToolResult } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { LogLevel, ProtocolEra, ToolInfo } from '../../shared/domain/server';
import type { HostMessage } from '../../shared/domain/host-message';
import type { BerthClient } from '../servers/berth-client';
import type { Disposable } from '../servers/connection-scope';
import type {
  CallToolOptions,
  ConnectionEvents,
  ConnectionFacts,
  SupervisedConnection,
} from '../servers/connection-options';
import type { TaskPreference, ToolTaskSession } from './tool-task-session';

export type { TaskPreference } from './tool-task-session';

/**
 * Whether a call of `tool` runs through the connection's task session, and
 * how. 2025-11-25 era, with a server that declares task-augmented tool calls:
 * `require` for a tool that must (`taskSupport: required`), `prefer` for one
 * that may when the person leaves that on for the server; a tool that
 * requires a task on a server that declares none gets the plain call, and the
 * server's own answer. 2026-07-28 era, with a server that declares the
 * `io.modelcontextprotocol/tasks` extension: `allow` for every call, as the
 * server decides per request whether it answers with a task (the era's tools
 * say nothing about it). Otherwise undefined: a plain tools/call.
 */
export function taskPreference(
  tool: ToolInfo | undefined,
  server: { era: ProtocolEra | undefined; capabilities: Record<string, unknown> | undefined },
  optionalAsTasks: boolean,
): TaskPreference | undefined {
  if (server.era === 'modern') return declaresTasksExtension(server.capabilities) ? 'allow' : undefined;
  if (server.era !== 'legacy' || !declaresTaskToolCalls(server.capabilities)) return undefined;
  const support = tool?.execution?.taskSupport;
  if (support === 'required') return 'require';
  if (support === 'optional' && optionalAsTasks) return 'prefer';
  return undefined;
}

function declaresTaskToolCalls(capabilities: Record<string, unknown> | undefined): boolean {
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return typeof tasks?.requests?.tools?.call === 'object' && tasks.requests.tools.call !== null;
}

/** The extension's value is `{}` (it defines no settings); ext-tasks runs v2 tasks only then, so nothing else counts. */
function declaresTasksExtension(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
  const value = extensions?.[TASKS_EXTENSION_ID_V2];
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/**
 * A live connection whose tool calls run as MCP tasks where the tool and the
 * server say so ({@linkcode taskPreference}); everything else is the
 * connection's own. The supervisor and the rest of the host see one
 * `callTool`, whatever the call becomes.
 */
export class TaskAwareConnection implements SupervisedConnection {
  constructor(
    private readonly inner: SupervisedConnection,
    private readonly tasks: ToolTaskSession,
    private readonly optionalAsTasks: () => boolean,
  ) {}

  get client(): BerthClient {
    return this.inner.client;
  }

  get lostReason(): string | undefined {
    return this.inner.lostReason;
  }

  get lostMessage(): HostMessage | undefined {
    return this.inner.lostMessage;
  }

  get tools(): ToolInfo[] {
    return this.inner.tools;
  }

  facts(): ConnectionFacts {
    return this.inner.facts();
  }

  on<E extends keyof ConnectionEvents>(event: E, listener: ConnectionEvents[E]): Disposable {
    return this.inner.on(event, listener);
  }

  callTool(tool: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const server = {
      era: this.inner.client.getProtocolEra(),
      capabilities: this.inner.client.getServerCapabilities() as Record<string, unknown> | undefined,
    };
    const info = this.inner.tools.find((candidate) => candidate.name === tool);
    const preference = taskPreference(info, server, this.optionalAsTasks());
    if (preference === undefined) return this.inner.callTool(tool, args, options);
    // A twin Berth renamed (shared/domain/tool-twins.ts) is created as a task under the name the server listed.
    return this.tasks.call(info?.listedName ?? tool, args, options, preference);
  }

  request<T>(
    method: string,
    what: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    send: (client: BerthClient) => Promise<T>,
  ): Promise<T> {
    return this.inner.request(method, what, timeoutMs, signal, send);
  }

  setLogLevel(level: LogLevel): Promise<void> {
    return this.inner.setLogLevel(level);
  }

  forgetLogLevel(): void {
    this.inner.forgetLogLevel();
  }

  /** Tasks first (left running for the next start, or given up, with the reason), then the link. */
  async close(): Promise<void> {
    try {
      await this.tasks.close();
    } finally {
      await this.inner.close();
    }
  }
}
