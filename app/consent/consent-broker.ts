import { HostError } from '../../shared/result';
import { JsonObjectSchema } from '../../shared/domain/consent';
import type { AuditEntry, AuditPage, ConsentPolicy, DecidedBy, JsonObject, ToolCallDecision } from '../../shared/domain/consent';
import { isWithdrawal } from '../../shared/domain/pending';
import type { LogSink } from '../logs/log-sink';
import type { PendingRequests } from '../pending/pending-requests';
import { AuditLog } from './audit-log';
import { argumentsDigest } from './canonical-json';
import { PolicyStore } from './policy-store';
import type { PolicyScope } from './policy-store';

/** One tool call the model wants to make. */
export interface ToolCallConsentRequest {
  conversationId: string;
  server: string;
  tool: string;
  toolTitle?: string;
  description?: string;
  /** The server's claims about the tool; shown as unverified unless the server is trusted. */
  annotations?: Record<string, unknown>;
  /** The arguments exactly as the model wrote them. */
  input: Record<string, unknown>;
  serverTrusted?: boolean;
  /** The model's tool_use id, so the prompt can sit next to the call in the chat. */
  toolUseId?: string;
  /** Aborting (the turn was stopped) withdraws the prompt: the call is denied. */
  signal?: AbortSignal;
}

/** The verdict for one tool call. */
export type ToolCallApproval =
  | {
      allowed: true;
      decision: Exclude<ToolCallDecision, 'deny'>;
      /** What to send: the person's edit, or the model's arguments. */
      arguments: JsonObject;
      edited: boolean;
      decidedBy: DecidedBy;
      /** The policy that allowed it, or the one the person's choice created. */
      policy?: ConsentPolicy;
    }
  | {
      allowed: false;
      decision: 'deny';
      /** The person's reason (for the model), or the host's note when the prompt was withdrawn. */
      reason?: string;
      decidedBy: 'person' | 'host';
    };

/** Options for {@linkcode ConsentBroker}. */
export interface ConsentBrokerOptions {
  /** Holds policies.json and audit.jsonl. */
  stateDir: string;
  pending: PendingRequests;
  /** Where warnings go (corrupt policies file, audit write failures). */
  logs: LogSink;
  now?: () => number;
  newId?: () => string;
  /** Audit rotation size (default 5 MiB) and rotated files kept (default 3). */
  auditMaxBytes?: number;
  auditKeepFiles?: number;
}

/** Note used when a prompt is closed because a policy covering it was just stored. */
const COVERED_NOTE = 'covered by a consent policy just added';

function scopeFor(decision: ToolCallDecision, call: { server: string; tool: string; conversationId: string }): PolicyScope | undefined {
  switch (decision) {
    case 'always-server':
      return { scope: 'server', server: call.server };
    case 'always-tool':
      return { scope: 'tool', server: call.server, tool: call.tool };
    case 'allow-conversation':
      return { scope: 'conversation', server: call.server, tool: call.tool, conversationId: call.conversationId };
    default:
      return undefined;
  }
}

/**
 * Nothing runs without a yes: each tool call is allowed by a stored policy or
 * by the person through a pending `tool-call` request. Every decision is
 * written to the audit log (arguments as a digest only).
 */
export class ConsentBroker {
  private readonly policies: PolicyStore;
  private readonly audit: AuditLog;
  private readonly listeners = new Set<(policies: ConsentPolicy[]) => void>();
  private readonly now: () => number;

  constructor(private readonly options: ConsentBrokerOptions) {
    this.now = options.now ?? Date.now;
    this.policies = new PolicyStore({
      stateDir: options.stateDir,
      warn: (text) => this.warn(`consent policies: ${text}`),
      now: this.now,
      ...(options.newId !== undefined ? { newId: options.newId } : {}),
    });
    this.audit = new AuditLog({
      stateDir: options.stateDir,
      ...(options.auditMaxBytes !== undefined ? { maxBytes: options.auditMaxBytes } : {}),
      ...(options.auditKeepFiles !== undefined ? { keepFiles: options.auditKeepFiles } : {}),
    });
  }

  /** Read the stored policies (also done on first use). Never rejects. */
  load(): Promise<void> {
    return this.policies.load();
  }

  /** Why the stored policies could not be used, for a notice in Settings. */
  get loadProblem(): string | undefined {
    return this.policies.loadProblem;
  }

  /** Ask (or apply a policy) for one tool call. Resolves with allow or deny; never hangs. */
  async approveToolCall(request: ToolCallConsentRequest): Promise<ToolCallApproval> {
    await this.policies.load();
    const input = JsonObjectSchema.safeParse(request.input);
    if (!input.success) throw new HostError('INVALID_INPUT', `the arguments for tool '${request.tool}' are not a JSON object`);
    const byPolicy = this.allowedByPolicy(request, input.data);
    if (byPolicy !== undefined) return byPolicy;

    const trusted = request.serverTrusted === true;
    const outcome = await this.options.pending.open(
      'tool-call',
      request.server,
      {
        server: request.server,
        serverTrusted: trusted,
        tool: request.tool,
        ...(request.toolTitle !== undefined ? { toolTitle: request.toolTitle } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
        ...(request.annotations !== undefined ? { annotations: request.annotations } : {}),
        annotationsTrusted: trusted,
        arguments: input.data,
      },
      {
        conversationId: request.conversationId,
        ...(request.toolUseId !== undefined ? { toolUseId: request.toolUseId } : {}),
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
      },
    );

    if (isWithdrawal(outcome)) {
      // A policy stored while this prompt was open (parallel calls) covers it.
      const covered = this.allowedByPolicy(request, input.data);
      if (covered !== undefined) return covered;
      await this.record(request, input.data, undefined, 'deny', 'host', outcome.note);
      return { allowed: false, decision: 'deny', reason: outcome.note, decidedBy: 'host' };
    }
    if (outcome.decision === 'deny') {
      await this.record(request, input.data, undefined, 'deny', 'person');
      return { allowed: false, decision: 'deny', ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}), decidedBy: 'person' };
    }
    const sent = outcome.arguments ?? input.data;
    const edited = outcome.arguments !== undefined && argumentsDigest(outcome.arguments) !== argumentsDigest(input.data);
    const scope = scopeFor(outcome.decision, request);
    const policy = scope === undefined ? undefined : await this.policies.add(scope);
    await this.record(request, input.data, edited ? sent : undefined, outcome.decision, 'person');
    if (policy !== undefined) {
      this.changed();
      this.closeCoveredPrompts();
    }
    return { allowed: true, decision: outcome.decision, arguments: sent, edited, decidedBy: 'person', ...(policy !== undefined ? { policy } : {}) };
  }

  /** Every policy, broadest first (server, tool, conversation). */
  listPolicies(): ConsentPolicy[] {
    return this.policies.list();
  }

  /** Revoke one policy; NOT_FOUND for an unknown id. */
  async revokePolicy(id: string): Promise<ConsentPolicy> {
    const policy = await this.policies.revoke(id);
    this.changed();
    return policy;
  }

  /** A conversation was deleted: its "allow for this conversation" policies go too. */
  forgetConversation(conversationId: string): void {
    if (this.policies.forgetConversation(conversationId) > 0) this.changed();
  }

  /** Called with the full list whenever a policy is added or revoked. */
  onPoliciesChange(listener: (policies: ConsentPolicy[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Newest audit entries first. */
  readAudit(options: { limit?: number } = {}): Promise<AuditPage> {
    return this.audit.read(options);
  }

  /** Resolves once pending policy saves have finished. */
  flush(): Promise<void> {
    return this.policies.flush();
  }

  /** Berth is quitting: policies written, audit lines written and the audit file closed. */
  async close(): Promise<void> {
    await this.policies.flush();
    await this.audit.close();
  }

  private allowedByPolicy(request: ToolCallConsentRequest, input: JsonObject): Promise<ToolCallApproval> | undefined {
    const policy = this.policies.match(request);
    if (policy === undefined) return undefined;
    const decision: Exclude<ToolCallDecision, 'deny'> =
      policy.scope === 'server' ? 'always-server' : policy.scope === 'tool' ? 'always-tool' : 'allow-conversation';
    const decidedBy: DecidedBy = `policy:${policy.id}`;
    return this.record(request, input, undefined, decision, decidedBy).then(() => ({ allowed: true, decision, arguments: input, edited: false, decidedBy, policy }));
  }

  /** Prompts now covered by a policy end; their callers re-check and find the policy. */
  private closeCoveredPrompts(): void {
    this.options.pending.withdrawWhere((pending) => {
      if (pending.kind !== 'tool-call') return false;
      return this.policies.match({ server: pending.server, tool: pending.payload.tool, conversationId: pending.conversationId ?? '' }) !== undefined;
    }, COVERED_NOTE);
  }

  private async record(
    request: ToolCallConsentRequest,
    asked: JsonObject,
    sent: JsonObject | undefined,
    decision: ToolCallDecision,
    decidedBy: DecidedBy,
    note?: string,
  ): Promise<void> {
    const entry: AuditEntry = {
      time: new Date(this.now()).toISOString(),
      server: request.server,
      tool: request.tool,
      conversationId: request.conversationId,
      argumentsDigest: argumentsDigest(asked),
      ...(sent !== undefined ? { sentArgumentsDigest: argumentsDigest(sent) } : {}),
      decision,
      decidedBy,
      edited: sent !== undefined,
      ...(note !== undefined ? { note } : {}),
    };
    try {
      await this.audit.append(entry);
    } catch (error) {
      // The decision stands; a lost audit line must still be visible to the person.
      this.warn(`audit log: could not record ${decision} for ${request.server}/${request.tool} in ${this.audit.filePath}: ${(error as Error).message}`);
    }
  }

  private changed(): void {
    const list = this.policies.list();
    for (const listener of [...this.listeners]) listener(list);
  }

  private warn(text: string): void {
    this.options.logs.append({ server: '', time: this.now(), source: 'host', level: 'warning', text });
  }
}
