import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import { formFromSchema, labelledProblems, validateElicitationValues } from '../../shared/elicitation';
import { fixFormRefusal } from '../../shared/domain/pending-errors';
import { isWithdrawal } from '../../shared/domain/pending';
import type { LogSink } from '../logs/log-sink';
import type { OpenOptions, PendingRequests } from '../pending/pending-requests';

/** A URL the person agreed to open; the server will say when the interaction is complete. */
export interface AwaitingElicitation {
  server: string;
  elicitationId: string;
  url: string;
  domain: string;
  message: string;
  /** Epoch ms when the browser was opened. */
  since: number;
  conversationId?: string;
  toolUseId?: string;
}

/** Options for {@linkcode ElicitationFlow}. */
export interface ElicitationFlowOptions {
  pending: PendingRequests;
  /** Opens the system browser; called only after the person agreed. */
  openExternal: (url: string) => Promise<void>;
  logs: LogSink;
  now?: () => number;
}

/** Where a request came from, beyond the server. */
export interface ElicitationContext {
  /** The SDK handler's `ctx.mcpReq.signal`: aborted when the server cancels. */
  signal?: AbortSignal;
  conversationId?: string;
  toolUseId?: string;
  /** The Berth task the question belongs to (a task-augmented request). */
  taskId?: string;
  /** Told the question's pending id as it opens. */
  onQuestion?: (pendingId: string) => void;
}

/** What the URL prompt shows about a link, and whether Berth will open it at all. */
export function inspectElicitationUrl(
  raw: string,
): { ok: true; url: string; domain: string; warnings: string[] } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      ok: false,
      message: `the elicitation URL is not a valid absolute URL: ${JSON.stringify(raw.slice(0, 200))}`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: `Berth opens only http and https links; this one uses '${url.protocol}'` };
  }
  const domain = url.hostname;
  const warnings: string[] = [];
  const local = domain === 'localhost' || domain === '127.0.0.1' || domain === '[::1]';
  if (url.protocol === 'http:' && !local) warnings.push('The link is not encrypted (http, not https).');
  if (url.username !== '' || url.password !== '') {
    warnings.push(
      `The link has a user name before the domain ("${decodeURIComponent(url.username)}@"), a trick used to disguise the real site: it goes to ${domain}.`,
    );
  }
  if (domain.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push(
      `The domain uses international characters (${domain}); check it is the site you expect, not a look-alike.`,
    );
  }
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/u.test(domain) || domain.startsWith('[')) {
    if (!local) warnings.push('The link goes to a bare IP address, not a named site.');
  }
  return { ok: true, url: url.href, domain, warnings };
}

function key(server: string, elicitationId: string): string {
  return `${server}\u0000${elicitationId}`;
}

/**
 * `elicitation/create`: form mode as a validated form (checked again on the
 * host), URL mode as an explicit consent to open a link in the browser, then a
 * waiting note until `notifications/elicitation/complete`. A closed window or a
 * vanished server answers `cancel`; nothing ever hangs.
 */
export class ElicitationFlow {
  private readonly waiting = new Map<string, AwaitingElicitation>();
  private readonly listeners = new Set<(awaiting: AwaitingElicitation[]) => void>();
  private readonly now: () => number;

  constructor(private readonly options: ElicitationFlowOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The handler body for `client.setRequestHandler('elicitation/create', …)`. */
  handle(server: string, params: ElicitRequestParams, context: ElicitationContext = {}): Promise<ElicitResult> {
    return params.mode === 'url'
      ? this.handleUrl(server, params, context)
      : this.handleForm(server, params as ElicitRequestFormParams, context);
  }

  /** `notifications/elicitation/complete`: close the waiting note (or a prompt still open). True when something matched. */
  complete(server: string, elicitationId: string): boolean {
    if (this.waiting.delete(key(server, elicitationId))) {
      this.log(server, 'info', `elicitation ${elicitationId} completed`);
      this.changed();
      return true;
    }
    const withdrawn = this.options.pending.withdrawWhere(
      (r) =>
        r.kind === 'elicitation' &&
        r.server === server &&
        r.payload.mode === 'url' &&
        r.payload.elicitationId === elicitationId,
      'the server reported this interaction complete',
    );
    // The spec says to ignore unknown ids; the log keeps the trace.
    if (withdrawn === 0) this.log(server, 'debug', `completion for unknown elicitation ${elicitationId} ignored`);
    return withdrawn > 0;
  }

  /** Links opened and not yet reported complete. */
  awaiting(): AwaitingElicitation[] {
    return [...this.waiting.values()];
  }

  onAwaitingChange(listener: (awaiting: AwaitingElicitation[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The person closed a waiting note. */
  dismiss(server: string, elicitationId: string): boolean {
    const removed = this.waiting.delete(key(server, elicitationId));
    if (removed) this.changed();
    return removed;
  }

  /** The server disconnected: its waiting notes go (its prompts are withdrawn through PendingRequests). */
  forgetServer(server: string): void {
    let removed = false;
    for (const [k, entry] of this.waiting) {
      if (entry.server === server) removed = this.waiting.delete(k) || removed;
    }
    if (removed) this.changed();
  }

  private openOptions(context: ElicitationContext): OpenOptions<'elicitation'> {
    return {
      ...(context.signal !== undefined ? { signal: context.signal } : {}),
      ...(context.conversationId !== undefined ? { conversationId: context.conversationId } : {}),
      ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {}),
      ...(context.taskId !== undefined ? { taskId: context.taskId } : {}),
      ...(context.onQuestion !== undefined ? { onOpened: context.onQuestion } : {}),
    };
  }

  private async handleForm(
    server: string,
    params: ElicitRequestFormParams,
    context: ElicitationContext,
  ): Promise<ElicitResult> {
    const form = formFromSchema(params.requestedSchema);
    if (!form.ok) {
      this.log(server, 'warning', `elicitation refused: ${form.message}`);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, form.message, { problems: form.problems });
    }
    const { fields } = form;
    const outcome = await this.options.pending.open(
      'elicitation',
      server,
      { mode: 'form', message: params.message, fields },
      {
        ...this.openOptions(context),
        validate: (response) => {
          if (response.action !== 'accept') return undefined;
          const checked = validateElicitationValues(fields, response.content ?? {});
          return checked.ok ? undefined : fixFormRefusal(labelledProblems(fields, checked.errors));
        },
      },
    );
    if (isWithdrawal(outcome)) {
      this.log(server, 'info', `elicitation withdrawn: ${outcome.note}`);
      return { action: 'cancel' };
    }
    if (outcome.action !== 'accept') return { action: outcome.action };
    const checked = validateElicitationValues(fields, outcome.content ?? {});
    // The validator above already refused bad content; this only narrows the type.
    if (!checked.ok)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'the accepted form content did not validate');
    return { action: 'accept', content: checked.content };
  }

  private async handleUrl(
    server: string,
    params: ElicitRequestURLParams,
    context: ElicitationContext,
  ): Promise<ElicitResult> {
    const inspected = inspectElicitationUrl(params.url);
    if (!inspected.ok) {
      this.log(server, 'warning', `URL elicitation refused: ${inspected.message}`);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, inspected.message);
    }
    const { url, domain, warnings } = inspected;
    // The 2026-07-28 revision's input_required rounds carry no elicitationId
    // (nor a completion notification): give the request a local one so the
    // awaiting list can still track and dismiss it.
    const rawId: unknown = (params as { elicitationId?: unknown }).elicitationId;
    const elicitationId = typeof rawId === 'string' && rawId !== '' ? rawId : `local-${randomUUID()}`;
    const outcome = await this.options.pending.open(
      'elicitation',
      server,
      { mode: 'url', message: params.message, url, domain, elicitationId, warnings },
      this.openOptions(context),
    );
    if (isWithdrawal(outcome)) {
      this.log(server, 'info', `URL elicitation withdrawn: ${outcome.note}`);
      return { action: 'cancel' };
    }
    if (outcome.action !== 'accept') return { action: outcome.action };
    try {
      await this.options.openExternal(url);
    } catch (error) {
      this.log(server, 'error', `could not open ${url} in the browser: ${(error as Error).message}`);
      return { action: 'cancel' };
    }
    this.log(server, 'info', `opened ${domain} in the browser for elicitation ${elicitationId}`);
    this.waiting.set(key(server, elicitationId), {
      server,
      elicitationId,
      url,
      domain,
      message: params.message,
      since: this.now(),
      ...(context.conversationId !== undefined ? { conversationId: context.conversationId } : {}),
      ...(context.toolUseId !== undefined ? { toolUseId: context.toolUseId } : {}),
    });
    this.changed();
    return { action: 'accept' };
  }

  private changed(): void {
    const list = this.awaiting();
    for (const listener of [...this.listeners]) listener(list);
  }

  private log(server: string, level: 'debug' | 'info' | 'warning' | 'error', text: string): void {
    this.options.logs.append({ server, time: this.now(), source: 'host', level, text });
  }
}
