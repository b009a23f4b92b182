import type { CallToolResult } from '@modelcontextprotocol/client';
import type { z } from 'zod';
import { AppToolResultSchema } from '../../shared/contract/apps';
import type { AppModelContext, AppOrigin, AppUiResource, ServerApp } from '../../shared/domain/app-ui';
import type { Conversation, McpContentBlock, ToolAppRef } from '../../shared/domain/chat';
import type { LogLevel, ServerState, ServerStateOf, ToolInfo } from '../../shared/domain/server';
import { appsError } from '../../shared/domain/apps-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { DENIED_TEXT, outcomeFromCallToolResult } from '../chat/tool-results';
import type { ConsentBroker } from '../consent/consent-broker';
import { toolConsentFacts } from '../consent/tool-consent-facts';
import type { EventHub } from '../events/event-hub';
import type { LogSink } from '../logs/log-sink';
import type { CallToolOptions } from '../servers/server-connection';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { AppCallConsent } from './app-call-consent';
import { AppModelContexts } from './model-context';
import { callableByApp, toolAudience } from '../../shared/apps/tool-ui';
import { UiResourceCatalog } from './ui-resource-catalog';
import type { UiResourceServers } from './ui-resource-catalog';

export type AppToolResult = z.infer<typeof AppToolResultSchema>;

/** An app's tool result above this (as JSON) is refused rather than pushed through the bridge into a card. */
export const MAX_APP_TOOL_RESULT_BYTES = 8 * 1024 * 1024;

/** The supervisor as the apps use it (ServerSupervisor fits). */
export interface AppsServers extends UiResourceServers {
  callTool(
    name: string,
    tool: string,
    args: Record<string, unknown>,
    options?: CallToolOptions,
  ): Promise<CallToolResult>;
}

export interface AppsServiceOptions {
  servers: AppsServers;
  consent: Pick<ConsentBroker, 'approveToolCall'>;
  logs: LogSink;
  events: Pick<EventHub, 'emit'>;
  /** The host's way of opening a link in the person's browser (a no-op in browser mode: the renderer opens it). */
  openExternal(url: string): Promise<void>;
  /** Where the sandbox proxy is served; undefined until the shell has one. */
  sandboxProxyUrl?: (() => string | undefined) | undefined;
  /** A stored conversation (throws NOT_FOUND), to check that a card really is there. */
  conversation(id: string): Promise<Conversation>;
  now?: () => number;
}

/**
 * MCP Apps on the host side: which tools have a UI and who may call them, the
 * UI resources (cached: UiResourceCatalog), and every request an app makes
 * through the renderer, each under Berth's rules: tool calls through the same
 * consent as the model's, only to the app's own server and only tools that
 * are visible to apps; links http(s) only; logs into the server's log;
 * context for the model kept per card and sent with the next turn.
 */
export class AppsService implements ServerLifecycleListener {
  readonly catalog: UiResourceCatalog;
  private readonly contexts: AppModelContexts;
  private readonly appCalls = new AppCallConsent();
  readonly listChanged: UiResourceCatalog['listChanged'];

  constructor(private readonly options: AppsServiceOptions) {
    const { servers, events, logs } = options;
    this.catalog = new UiResourceCatalog({
      servers,
      onChanged: (server) => events.emit('apps.resourcesChanged', { server }),
      warn: (server, text) => logs.append({ server, time: Date.now(), source: 'host', level: 'warning', text }),
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
    this.contexts = new AppModelContexts(options.now);
    this.listChanged = this.catalog.listChanged;
  }

  serverChanged(state: ServerState): void {
    this.catalog.serverChanged(state);
  }

  serverRemoved(server: string): void {
    this.catalog.serverRemoved(server);
  }

  /** The sandbox proxy's URL (another origin than Berth's own UI). */
  sandbox(): { proxyUrl: string } {
    const proxyUrl = this.options.sandboxProxyUrl?.();
    if (proxyUrl === undefined) throw HostError.coded('NOT_READY', appsError('apps-errors.no-sandbox', {}));
    return { proxyUrl };
  }

  /** The app a tool's card renders, when the tool names one. */
  toolApp(server: string, tool: string): ToolAppRef | undefined {
    const state = this.options.servers.get(server);
    const info = state?.status === 'ready' ? state.tools.find((entry) => entry.name === tool) : undefined;
    const resourceUri = info?.ui?.resourceUri;
    return resourceUri === undefined ? undefined : { resourceUri };
  }

  /** A ready server's tools with a UI. */
  list(server: string): ServerApp[] {
    const state = this.readyServer(server, (status) => appsError('apps-errors.list-not-running', { server, status }));
    return state.tools.flatMap((tool) =>
      tool.ui?.resourceUri === undefined
        ? []
        : [
            {
              tool: tool.name,
              ...(tool.title !== undefined ? { title: tool.title } : {}),
              ...(tool.description !== undefined ? { description: tool.description } : {}),
              resourceUri: tool.ui.resourceUri,
              visibility: [...toolAudience(tool)],
              inputSchema: tool.inputSchema,
            },
          ],
    );
  }

  resource(server: string, uri: string): Promise<AppUiResource> {
    return this.catalog.read(server, uri);
  }

  /**
   * A tools/call from the app in a card: its own server only, a tool visible
   * to apps, and the same consent as the model's calls (stored permissions,
   * fingerprints, audit), the prompt saying the app asked.
   */
  async callTool(
    origin: AppOrigin,
    named: string,
    args: Record<string, unknown>,
    call?: { instance: string; callId: string },
  ): Promise<AppToolResult> {
    const state = this.readyServer(origin.server, (status) =>
      appsError('apps-errors.call-not-running', { server: origin.server, status, tool: named }),
    );
    const info = toolForApp(state.tools, named);
    if (info === undefined)
      throw HostError.coded('NOT_FOUND', appsError('apps-errors.no-tool', { server: origin.server, tool: named }));
    // Berth's name from here on: consent, permissions and the call are the twin's own (shared/domain/tool-twins.ts).
    const tool = info.name;
    if (!callableByApp(info))
      throw HostError.coded('FORBIDDEN', appsError('apps-errors.model-only', { server: origin.server, tool }));
    // A permission "for this conversation" must not be borrowed by naming another conversation's card.
    if (origin.conversationId !== undefined && origin.toolUseId !== undefined)
      await this.checkCard({ ...origin, conversationId: origin.conversationId, toolUseId: origin.toolUseId });
    const facts = toolConsentFacts(state, tool);
    let denial: string | undefined;
    const ask = async (signal?: AbortSignal) => {
      const verdict = await this.options.consent.approveToolCall({
        ...(origin.conversationId !== undefined ? { conversationId: origin.conversationId } : {}),
        ...(origin.toolUseId !== undefined ? { toolUseId: origin.toolUseId } : {}),
        requestedBy: 'app',
        ...(call !== undefined ? { appInstance: true } : {}),
        server: origin.server,
        tool,
        input: args,
        ...facts,
        ...(signal !== undefined ? { signal } : {}),
      });
      if (!verdict.allowed) {
        const reason = verdict.reason?.trim();
        denial = reason ? `${DENIED_TEXT}. Reason: ${reason}` : `${DENIED_TEXT}.`;
      }
      return verdict;
    };
    const decided =
      call === undefined
        ? await ask().then((verdict) =>
            verdict.allowed ? { run: true as const, arguments: verdict.arguments } : { run: false as const, text: '' },
          )
        : await this.appCalls.decide({ ...call, tool, toolNow: JSON.stringify(facts) }, args, ask);
    if (!decided.run)
      return { content: [{ type: 'text', text: decided.text || denial || DENIED_TEXT }], isError: true };
    const answer = await this.options.servers.callTool(origin.server, tool, { ...decided.arguments });
    return boundedResult(origin.server, tool, answer);
  }

  /** The app gave up on one of its calls (its request timed out or was cancelled): a question for it is withdrawn. */
  cancelCall(instance: string, callId: string): void {
    this.appCalls.cancel(instance, callId);
  }

  /** The app's card closed (or its conversation was left): its questions are withdrawn and nothing more runs for it. */
  appGone(instance: string): void {
    this.appCalls.gone(instance);
  }

  /** A log message from the app: into its server's log, source `app` (the hub redacts secrets). */
  log(origin: AppOrigin, level: LogLevel, logger: string | undefined, text: string): void {
    this.knownServer(origin.server);
    this.options.logs.append({
      server: origin.server,
      time: Date.now(),
      source: 'app',
      level,
      ...(logger !== undefined ? { logger } : {}),
      text,
    });
  }

  /** A link the app asked for and the person agreed to: http(s) only, no credentials in it. */
  async openExternal(origin: AppOrigin, url: string): Promise<void> {
    this.knownServer(origin.server);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw HostError.coded('INVALID_INPUT', appsError('apps-errors.not-a-link', {}), 'url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw HostError.coded('INVALID_INPUT', appsError('apps-errors.link-scheme', { scheme: parsed.protocol }), 'url');
    if (parsed.username !== '' || parsed.password !== '')
      throw HostError.coded('INVALID_INPUT', appsError('apps-errors.link-credentials', {}), 'url');
    await this.options.openExternal(parsed.href);
    this.options.logs.append({
      server: origin.server,
      time: Date.now(),
      source: 'host',
      level: 'info',
      text: `its app opened a link to ${parsed.host}`,
    });
  }

  /** Replace (or clear, with no content) what one card adds to the model's context. */
  async setModelContext(
    origin: Required<Pick<AppOrigin, 'conversationId' | 'toolUseId'>> & AppOrigin,
    content: McpContentBlock[],
    structuredContent?: Record<string, unknown>,
  ): Promise<void> {
    await this.checkCard(origin);
    const contexts = this.contexts.set(
      origin.conversationId,
      origin.toolUseId,
      origin.server,
      content,
      structuredContent,
    );
    this.options.events.emit('apps.modelContextChanged', { conversationId: origin.conversationId, contexts });
  }

  modelContext(conversationId: string): AppModelContext[] {
    return this.contexts.list(conversationId);
  }

  /** The labelled text sent with this conversation's next model request, if apps added any. */
  turnContext(conversationId: string): string | undefined {
    return this.contexts.turnText(conversationId);
  }

  /** A conversation was deleted: its cards' contexts go with it. */
  forgetConversation(conversationId: string): void {
    if (this.contexts.forget(conversationId))
      this.options.events.emit('apps.modelContextChanged', { conversationId, contexts: [] });
  }

  /** The card of the origin is a call of the origin's server in that conversation. */
  private async checkCard(origin: { server: string; conversationId: string; toolUseId: string }): Promise<void> {
    const conversation = await this.options.conversation(origin.conversationId);
    const card = conversation.messages
      .flatMap((message) => message.content)
      .find((block) => block.type === 'tool_use' && block.id === origin.toolUseId);
    if (card === undefined || card.type !== 'tool_use')
      throw HostError.coded('NOT_FOUND', appsError('apps-errors.no-tool-call', { id: origin.toolUseId }));
    if (card.server !== origin.server)
      throw HostError.coded(
        'FORBIDDEN',
        appsError('apps-errors.call-of-other-server', { id: origin.toolUseId, server: origin.server }),
      );
  }

  private knownServer(server: string): ServerState {
    const state = this.options.servers.get(server);
    if (state === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-supervised', { name: server }));
    return state;
  }

  private readyServer(server: string, refusal: (status: string) => CodedText): ServerStateOf<'ready'> {
    const state = this.knownServer(server);
    if (state.status !== 'ready') throw HostError.coded('NOT_READY', refusal(state.status));
    return state;
  }
}

/** The MCP answer as the app gets it: content blocks Berth knows (others as a note), at most MAX_APP_TOOL_RESULT_BYTES. */
function boundedResult(server: string, tool: string, answer: CallToolResult): AppToolResult {
  const outcome = outcomeFromCallToolResult(answer);
  const result = AppToolResultSchema.parse({
    content: outcome.content,
    ...(outcome.structuredContent !== undefined ? { structuredContent: outcome.structuredContent } : {}),
    isError: outcome.isError === true,
  });
  const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
  if (bytes > MAX_APP_TOOL_RESULT_BYTES) {
    throw HostError.coded(
      'SERVER_ERROR',
      appsError('apps-errors.result-too-large', {
        server,
        tool,
        size: (bytes / (1024 * 1024)).toFixed(1),
        max: MAX_APP_TOOL_RESULT_BYTES / (1024 * 1024),
      }),
    );
  }
  return result;
}

/**
 * The tool an app means by `name`. An app knows its server's names only, so for a name the server listed more than
 * once (shared/domain/tool-twins.ts: Berth calls the others `name_2`…) it is the first of those an app may call.
 */
function toolForApp(tools: readonly ToolInfo[], name: string): ToolInfo | undefined {
  const own = tools.find((entry) => entry.name === name);
  if (own !== undefined && callableByApp(own)) return own;
  return tools.find((entry) => entry.listedName === name && callableByApp(entry)) ?? own;
}
