import type { Client, Prompt } from '@modelcontextprotocol/client';
import { McpContentBlockSchema } from '../../shared/domain/chat';
import type { ServerState } from '../../shared/domain/server';
import type { PromptCatalog, PromptInfo, PromptMessage, PromptResult } from '../../shared/contract/prompts';
import { workspaceError } from '../../shared/domain/workspace-errors';
import { HostError } from '../../shared/result';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import type { ServerRequest } from '../servers/supervised-server';
import { errorMessage } from '../../shared/error-message';
import type { CodedText } from '../../shared/domain/host-wording';

/** The supervisor as the catalog uses it (ServerSupervisor fits). */
export interface PromptServers {
  list(): ServerState[];
  get(name: string): ServerState | undefined;
  /** Waits out a reconnect and resends a request a lost HTTP session never ran. */
  request<T>(name: string, request: ServerRequest, send: (client: Client, timeoutMs: number) => Promise<T>): Promise<T>;
}

export interface PromptCatalogOptions {
  servers: PromptServers;
  /** The whole catalog, after every change. */
  onChange: (catalog: PromptCatalog) => void;
}

/** What is known about one ready server that declares prompts. */
interface ServerPrompts {
  /** Which ready session the list belongs to: a restart makes it stale. */
  readySince: number | undefined;
  completions: boolean;
  prompts: PromptInfo[];
  problem?: CodedText;
  /** Bumped on each refresh so an older, slower answer cannot overwrite a newer one. */
  generation: number;
  loading?: Promise<void>;
}

function declaresPrompts(state: ServerState): boolean {
  return state.status === 'ready' && state.capabilities?.prompts !== undefined;
}

function toPromptInfo(server: string, prompt: Prompt): PromptInfo {
  return {
    server,
    name: prompt.name,
    ...(prompt.title !== undefined ? { title: prompt.title } : {}),
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    arguments: (prompt.arguments ?? []).map((argument) => {
      // Newer servers send a display title per argument; the SDK's type does not list it yet.
      const title: unknown = (argument as { title?: unknown }).title;
      return {
        name: argument.name,
        ...(typeof title === 'string' ? { title } : {}),
        ...(argument.description !== undefined ? { description: argument.description } : {}),
        ...(argument.required !== undefined ? { required: argument.required } : {}),
      };
    }),
  };
}

/**
 * Every ready server's prompts, cached: read when a server becomes ready,
 * re-read when it says its list changed, dropped when it stops. Each change
 * is announced as the whole catalog (it is small: names and argument lists).
 */
export class PromptCatalogService implements ServerLifecycleListener {
  private readonly byServer = new Map<string, ServerPrompts>();
  readonly listChanged = { prompts: (server: string): void => this.promptsChanged(server) };

  constructor(private readonly options: PromptCatalogOptions) {}

  /** Call with every server state change. */
  serverChanged(state: ServerState): void {
    const known = this.byServer.get(state.name);
    if (state.status !== 'ready' || !declaresPrompts(state)) {
      if (known !== undefined) {
        this.byServer.delete(state.name);
        this.announce();
      }
      return;
    }
    // Tool-list updates also arrive here: only a new ready session needs a fresh read.
    if (known !== undefined && known.readySince === state.readySince) return;
    this.byServer.set(state.name, {
      readySince: state.readySince,
      completions: state.capabilities?.completions !== undefined,
      prompts: [],
      generation: 0,
    });
    this.refresh(state.name);
  }

  serverRemoved(name: string): void {
    if (this.byServer.delete(name)) this.announce();
  }

  /** The server sent notifications/prompts/list_changed. */
  promptsChanged(name: string): void {
    if (this.byServer.has(name)) this.refresh(name);
  }

  /** The catalog once every read in progress has finished. */
  async list(): Promise<PromptCatalog> {
    // Catch-up for servers that became ready before the catalog was listening.
    for (const state of this.options.servers.list()) this.serverChanged(state);
    await Promise.all([...this.byServer.values()].map((entry) => entry.loading));
    return this.view();
  }

  view(): PromptCatalog {
    const names = [...this.byServer.keys()].sort((a, b) => a.localeCompare(b));
    return {
      prompts: names.flatMap((name) => this.byServer.get(name)?.prompts ?? []),
      servers: names.map((name) => ({ name, completions: this.byServer.get(name)?.completions ?? false })),
      problems: names.flatMap((name) => {
        const problem = this.byServer.get(name)?.problem;
        return problem === undefined ? [] : [{ server: name, message: problem.text, hostMessage: problem.hostMessage }];
      }),
    };
  }

  /** prompts/get with the server's request timeout; the messages come back validated. */
  async get(server: string, name: string, args: Record<string, string>): Promise<PromptResult> {
    const request = { method: 'prompts/get', what: `prompt '${name}'`, action: `get prompt '${name}'` };
    const result = await this.options.servers.request(server, request, (client, timeoutMs) =>
      client.getPrompt({ name, arguments: args }, { timeout: timeoutMs }),
    );
    const messages = result.messages.map((message, index): PromptMessage => {
      const content = McpContentBlockSchema.safeParse(message.content);
      if (!content.success) {
        throw HostError.coded(
          'SERVER_ERROR',
          workspaceError('workspace-errors.prompt-unsupported', {
            server,
            name,
            index: index + 1,
            kind: String((message.content as { type?: unknown }).type),
          }),
        );
      }
      return { role: message.role, content: content.data };
    });
    return { ...(result.description !== undefined ? { description: result.description } : {}), messages };
  }

  private refresh(name: string): void {
    const entry = this.byServer.get(name);
    if (entry === undefined) return;
    const generation = ++entry.generation;
    const loading = this.read(name).then(
      (prompts) => ({ prompts, problem: undefined }),
      (error: unknown) => ({
        prompts: undefined,
        problem: { text: errorMessage(error), hostMessage: error instanceof HostError ? error.hostMessage : undefined },
      }),
    );
    entry.loading = loading.then(({ prompts, problem }) => {
      // The server stopped, restarted or refreshed again meanwhile: this answer is stale.
      if (this.byServer.get(name) !== entry || entry.generation !== generation) return;
      entry.loading = undefined;
      if (prompts !== undefined) {
        entry.prompts = prompts;
        entry.problem = undefined;
      } else {
        entry.problem = workspaceError(
          'workspace-errors.prompt-list-failed',
          { reason: problem.text },
          problem.hostMessage,
        );
      }
      this.announce();
    });
  }

  private async read(name: string): Promise<PromptInfo[]> {
    const request = { method: 'prompts/list', what: '', action: 'list its prompts' };
    // Without a cursor the SDK walks every page; 'refresh' bypasses its response cache after list_changed.
    const { prompts } = await this.options.servers.request(name, request, (client, timeoutMs) =>
      client.listPrompts(undefined, { timeout: timeoutMs, cacheMode: 'refresh' }),
    );
    return prompts.map((prompt) => toPromptInfo(name, prompt));
  }

  private announce(): void {
    this.options.onChange(this.view());
  }
}
