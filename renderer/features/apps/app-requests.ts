import type { BridgeTransport } from '../../../shared/contract';
import type { AppOrigin } from '../../../shared/domain/app-ui';
import type { LogLevel } from '../../../shared/domain/server';
import { negotiateDisplayMode, type DisplayMode } from './display-modes';
import { MAX_APP_REQUEST_JSON_CHARS, requestJsonSize } from './frame-bounds';
import { checkLink } from './open-link';
import { createRequestGate, type RequestGate } from './request-gate';

/** An MCP content block as an app sends or receives it. */
type ContentBlock = { type: string; [key: string]: unknown };
type ToolResult = { content: ContentBlock[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** What the card lets the handlers do: everything the person sees or decides goes through these. */
export interface AppRequestDeps {
  transport: Pick<BridgeTransport, 'call'>;
  origin: AppOrigin;
  /**
   * This running app's id (random, one per card frame): the host groups its
   * questions, withdraws them when a call is given up or the app goes, and
   * refuses its calls once it is gone.
   */
  instance?: string;
  /** A fresh id for each of its tool calls (default: a random UUID). */
  newCallId?: () => string;
  gate: RequestGate;
  now?: () => number;
  /** Ask the person whether to open `url` (its domain shown plainly); true when they said yes. */
  confirmLink(link: { url: string; domain: string }): Promise<boolean>;
  /** Browser mode: the host cannot open the person's browser, so the page opens the tab itself once the host has checked the link. */
  openInBrowser?: (url: string) => void;
  /** Show the app's message above the composer for the person to edit and send, or drop. */
  proposeMessage(text: string): void;
  /** The gate closed the app: the card tears it down and says why. */
  closeForAbuse(requests: number, seconds: number): void;
  displayMode: {
    current(): DisplayMode;
    /** What the app declared in its capabilities' `availableDisplayModes`. */
    appModes(): readonly string[] | undefined;
    hostModes: readonly DisplayMode[];
    set(mode: DisplayMode): void;
  };
}

/** Thrown to an app: the bridge answers its request with this message as a JSON-RPC error. */
export class AppRequestRefused extends Error {}

const LOG_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** The contract's bound on one log text. */
const MAX_LOG_CHARS = 16_384;
/**
 * An app's own log lines have a budget of their own: past it they are dropped,
 * never counted against its requests, so a chatty app is not closed for it.
 */
const LOG_BUDGET = { ratePerSecond: 20, burst: 100, refusalsToClose: Number.POSITIVE_INFINITY, abuseWindowMs: 5_000 };

/**
 * The answers to an app's requests, as plain functions over the transport so
 * they are tested without an iframe. Each request first passes the card's rate
 * gate and the size bound; tools, resources and logs are bound to the card's
 * own server (the app never names one); links and messages wait for the person.
 */
export function createAppRequestHandlers(deps: AppRequestDeps) {
  const now = deps.now ?? Date.now;
  let closeReported = false;
  const logBudget = createRequestGate(LOG_BUDGET);

  /** Admission for one message from the app; throws (for requests) when it is refused. */
  function admit(method: string, params: unknown): void {
    const verdict = deps.gate.check(now());
    if (verdict.kind === 'close') {
      if (!closeReported) deps.closeForAbuse(verdict.requests, verdict.seconds);
      closeReported = true;
      throw new AppRequestRefused('This app sent too many requests and was closed.');
    }
    if (verdict.kind === 'refuse')
      throw new AppRequestRefused(`Too many requests from this app (${method}): slow down.`);
    const size = requestJsonSize(params);
    if (size > MAX_APP_REQUEST_JSON_CHARS) {
      throw new AppRequestRefused(
        `This ${method} request is too big (${(size / 1_000_000).toFixed(1)} MB); Berth takes at most 1 MB per request from an app.`,
      );
    }
  }

  async function call<M extends Parameters<BridgeTransport['call']>[0]>(
    method: M,
    input: Parameters<BridgeTransport['call']>[1] & object,
  ) {
    const result = await deps.transport.call(method, input as never);
    if (!result.ok) throw new AppRequestRefused(result.message);
    return result.value;
  }

  return {
    /** `signal`: the app gave up on the call (its request timed out or it cancelled it): the host is told. */
    async callTool(
      params: { name: string; arguments?: Record<string, unknown> },
      signal?: AbortSignal,
    ): Promise<ToolResult> {
      admit('tools/call', params);
      const { instance } = deps;
      const callId = instance === undefined ? undefined : (deps.newCallId ?? (() => crypto.randomUUID()))();
      const giveUp = () => {
        if (instance !== undefined && callId !== undefined)
          void deps.transport.call('apps.cancelCall', { instance, callId });
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      try {
        return (await call('apps.callTool', {
          origin: deps.origin,
          tool: params.name,
          arguments: params.arguments ?? {},
          ...(instance !== undefined && callId !== undefined ? { call: { instance, callId } } : {}),
        })) as ToolResult;
      } finally {
        signal?.removeEventListener('abort', giveUp);
      }
    },

    /** The app is going away (card closed, conversation left): the host withdraws its questions and runs nothing more for it. */
    gone(): void {
      if (deps.instance !== undefined) void deps.transport.call('apps.appGone', { instance: deps.instance });
    },

    async readResource(params: { uri: string }) {
      admit('resources/read', params);
      const value = (await call('resources.read', { server: deps.origin.server, uri: params.uri })) as {
        contents: (
          | { kind: 'text'; uri: string; mimeType?: string; text: string }
          | { kind: 'blob'; uri: string; mimeType?: string; blob: string }
        )[];
      };
      return {
        contents: value.contents.map((part) =>
          part.kind === 'text'
            ? { uri: part.uri, ...(part.mimeType ? { mimeType: part.mimeType } : {}), text: part.text }
            : { uri: part.uri, ...(part.mimeType ? { mimeType: part.mimeType } : {}), blob: part.blob },
        ),
      };
    },

    async listResources(params: { cursor?: string } | undefined) {
      admit('resources/list', params);
      const value = (await call('resources.list', {
        server: deps.origin.server,
        ...(params?.cursor !== undefined ? { cursor: params.cursor } : {}),
      })) as {
        resources: { uri: string; name: string }[];
        nextCursor?: string;
      };
      return {
        resources: value.resources,
        ...(value.nextCursor !== undefined ? { nextCursor: value.nextCursor } : {}),
      };
    },

    async openLink(params: { url: string }): Promise<{ isError?: boolean }> {
      admit('ui/open-link', params);
      const link = checkLink(params.url);
      if (!link.ok) throw new AppRequestRefused(link.reason);
      if (!(await deps.confirmLink({ url: link.url, domain: link.domain }))) return { isError: true };
      await call('apps.openExternal', { origin: deps.origin, url: link.url });
      deps.openInBrowser?.(link.url);
      return {};
    },

    async message(params: { role?: string; content: ContentBlock[] }): Promise<{ isError?: boolean }> {
      admit('ui/message', params);
      if (deps.origin.conversationId === undefined)
        throw new AppRequestRefused('This app runs as a preview: there is no conversation to send a message to.');
      const texts = params.content.flatMap((block) =>
        block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
      );
      if (texts.length === 0) throw new AppRequestRefused('Berth takes only text messages from apps.');
      // Never sent by itself: the person edits and sends it, or drops it.
      deps.proposeMessage(texts.join('\n\n'));
      return {};
    },

    async updateModelContext(params: {
      content?: ContentBlock[];
      structuredContent?: Record<string, unknown>;
    }): Promise<Record<string, never>> {
      admit('ui/update-model-context', params);
      const { conversationId, toolUseId, server } = deps.origin;
      if (conversationId === undefined || toolUseId === undefined)
        throw new AppRequestRefused("Only an app in a conversation can add to the model's context.");
      await call('apps.setModelContext', {
        origin: { server, conversationId, toolUseId },
        content: (params.content ?? []) as never,
        ...(params.structuredContent !== undefined ? { structuredContent: params.structuredContent } : {}),
      });
      return {};
    },

    /** A notification: nothing to answer, so a refusal is counted by the gate and the message dropped. */
    log(params: { level: string; logger?: string; data?: unknown }): Promise<void> {
      if (closeReported || logBudget.check(now()).kind !== 'admit') return Promise.resolve();
      if (requestJsonSize(params) > MAX_APP_REQUEST_JSON_CHARS) return Promise.resolve();
      const level = (LOG_LEVELS.includes(params.level) ? params.level : 'info') as LogLevel;
      const text = typeof params.data === 'string' ? params.data : (JSON.stringify(params.data) ?? String(params.data));
      const input = {
        origin: deps.origin,
        level,
        ...(params.logger !== undefined ? { logger: params.logger.slice(0, 200) } : {}),
        text: text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS - 1)}…` : text,
      };
      // A log line the host could not take has nobody to tell: the app sent a notification, not a request.
      return deps.transport.call('apps.log', input).then(() => undefined);
    },

    async requestDisplayMode(params: { mode: string }): Promise<{ mode: DisplayMode }> {
      admit('ui/request-display-mode', params);
      const { displayMode } = deps;
      const mode = negotiateDisplayMode(
        params.mode,
        displayMode.current(),
        displayMode.appModes(),
        displayMode.hostModes,
      );
      if (mode !== displayMode.current()) displayMode.set(mode);
      return { mode };
    },

    /**
     * Size notifications are free: an app may report its size every animation
     * frame (the card applies only the newest), so only a closed app is ignored.
     */
    admitSizeChange(): boolean {
      return !closeReported;
    },
  };
}

export type AppRequestHandlers = ReturnType<typeof createAppRequestHandlers>;
