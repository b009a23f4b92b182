import { consentError } from '../../shared/domain/consent-errors';
import { HostError } from '../../shared/result';
import type {
  ApprovalChange,
  ApprovedTool,
  AuditDecision,
  AuditEntry,
  AuditPage,
  ConsentPolicy,
  DecidedBy,
  JsonObject,
  ToolCallDecision,
} from '../../shared/domain/consent';
import type { ConsentRule } from '../../shared/domain/consent-rules';
import { isWithdrawal } from '../../shared/domain/pending';
import type { HostMessage } from '../../shared/domain/host-message';
import type { LogSink } from '../logs/log-sink';
import type { PendingRequests } from '../pending/pending-requests';
import { approvedToolOf, staleness, toolChanges } from './approval-fingerprint';
import type { CurrentApproval, PolicyApproval } from './approval-fingerprint';
import { AuditLog } from './audit-log';
import { argumentsDigest } from './canonical-json';
import { isJsonObject } from './json-object';
import { PolicyStore } from './policy-store';
import { ruleApproval, ruleListStaleness, type ServerNow } from './consent-rule-approval';
import type { PolicyMatch, PolicyScope, StoredPolicy } from './policy-store';

/** One tool call the model (or an app in one of its cards) wants to make. */
export interface ToolCallConsentRequest {
  /** None only for an app shown outside a conversation (the server's Apps preview). */
  conversationId?: string;
  /** Who asked: the model (absent), or the app in the card of `toolUseId`. The prompt and the audit say so. */
  requestedBy?: 'app';
  /** The app asks from an open card whose calls Berth groups (AppCallConsent): "allow while the card is open" is offered. */
  appInstance?: boolean;
  server: string;
  tool: string;
  /** The name the server lists a renamed twin under (shared/domain/tool-twins.ts): the prompt says so. */
  listedName?: string;
  toolTitle?: string;
  description?: string;
  /** The tool's input schema as the server lists it now. */
  inputSchema?: Record<string, unknown>;
  /** The server's claims about the tool; shown as unverified unless the server is trusted. */
  annotations?: Record<string, unknown>;
  /** `serverIdentity()` of the config the server runs with now: a policy given to another command or address does not apply. */
  serverIdentity: string;
  /** The arguments exactly as the model wrote them. */
  input: Record<string, unknown>;
  serverTrusted?: boolean;
  /** The model's tool_use id, so the prompt can sit next to the call in the chat. */
  toolUseId?: string;
  /** Aborting (the turn was stopped) withdraws the prompt: the call is denied. */
  signal?: AbortSignal;
}

/** The consent broker's verdict on one tool call: what was decided, by whom (a policy or the person), and what to send. */
export type ToolCallConsentVerdict =
  | {
      allowed: true;
      decision: Exclude<AuditDecision, 'deny'>;
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
      /** The host's note as a code (withdrawal.*), for the person's language. */
      reasonMessage?: HostMessage;
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
  /** What a server is now, so listed policies can say whether they still apply; unknown servers are judged on nothing. */
  serverNow?: (server: string) => ServerNow | undefined;
}

export type { ServerNow } from './consent-rule-approval';

/** A server's config was edited by the person (Berth's own form). */
export interface ServerEdit {
  from: string;
  to: string;
  fromIdentity: string;
  toIdentity: string;
  /** The person chose to keep the permissions although the command or address changed. */
  keep: boolean;
}

/** One prompt open now, so a policy stored meanwhile can settle it. */
interface OpenAsk {
  request: ToolCallConsentRequest;
  cover: AbortController;
}

/** Note used when a prompt is closed because a policy covering it was just stored. */
const COVERED_NOTE = 'covered by a consent policy just added';

/** The call's server and tool as they are now, to judge policies against. */
function currentOf(request: ToolCallConsentRequest): CurrentApproval {
  return {
    server: request.serverIdentity,
    tool: approvedToolOf({
      title: request.toolTitle,
      description: request.description,
      inputSchema: request.inputSchema,
      annotations: request.annotations,
    }),
  };
}

/** What a new policy for this call approves: server-wide ones the server only, the others the tool as the person saw it too. */
function approvalFor(scope: PolicyScope, now: CurrentApproval): PolicyApproval {
  return scope.scope === 'server' || now.tool === undefined
    ? { server: now.server }
    : { server: now.server, tool: now.tool };
}

/** What the prompt says about a policy that covered this call but no longer applies. */
function changeOf(stale: NonNullable<PolicyMatch['stale']>, tool: string, now: CurrentApproval): ApprovalChange {
  const approvedTool: ApprovedTool | undefined =
    stale.policy.scope === 'rule' ? stale.policy.approval?.tools?.[tool] : stale.policy.approval?.tool;
  const changes =
    stale.reason === 'tool-changed' && approvedTool !== undefined && now.tool !== undefined
      ? toolChanges(approvedTool, now.tool)
      : [];
  return { policyScope: stale.policy.scope, reason: stale.reason, changes };
}

/** A stored policy as lists show it: without what it approved, with whether it still applies. */
function viewOf(policy: StoredPolicy, now: ServerNow | undefined): ConsentPolicy {
  const { approval, ...view } = policy;
  if (approval === undefined) return { ...view, stale: 'unrecorded' };
  if (now === undefined) return view;
  if (policy.scope === 'rule') {
    const stale = ruleListStaleness(approval, now);
    return stale === undefined ? view : { ...view, stale };
  }
  const tool = policy.scope === 'server' ? undefined : now.tools?.find((t) => t.name === policy.tool);
  const stale = staleness(
    approval,
    { server: now.identity, ...(tool !== undefined ? { tool: approvedToolOf(tool) } : {}) },
    policy.scope !== 'server',
  );
  return stale === undefined ? view : { ...view, stale };
}

function scopeFor(
  decision: ToolCallDecision,
  call: { server: string; tool: string; conversationId?: string | undefined },
): PolicyScope | undefined {
  switch (decision) {
    case 'always-server':
      return { scope: 'server', server: call.server };
    case 'always-tool':
      return { scope: 'tool', server: call.server, tool: call.tool };
    case 'allow-conversation':
      // Outside a conversation (an app preview) there is none to remember it for: it counts once.
      return call.conversationId === undefined
        ? undefined
        : { scope: 'conversation', server: call.server, tool: call.tool, conversationId: call.conversationId };
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
  private readonly asking = new Set<OpenAsk>();
  /** The list as last announced, to announce staleness changes only. */
  private announced = '';

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
  async approveToolCall(request: ToolCallConsentRequest): Promise<ToolCallConsentVerdict> {
    await this.policies.load();
    const input = request.input;
    if (!isJsonObject(input))
      throw HostError.coded('INVALID_INPUT', consentError('consent-errors.bad-arguments', { tool: request.tool }));
    const now = currentOf(request);
    const match = this.policies.match(request, now);
    if (match.allowed !== undefined) return this.allowedBy(match.allowed, request, input);

    const trusted = request.serverTrusted === true;
    const ask: OpenAsk = { request, cover: new AbortController() };
    const signal =
      request.signal === undefined ? ask.cover.signal : AbortSignal.any([request.signal, ask.cover.signal]);
    this.asking.add(ask);
    const outcome = await this.options.pending
      .open(
        'tool-call',
        request.server,
        {
          server: request.server,
          serverTrusted: trusted,
          tool: request.tool,
          ...(request.listedName !== undefined ? { listedName: request.listedName } : {}),
          ...(request.toolTitle !== undefined ? { toolTitle: request.toolTitle } : {}),
          ...(request.description !== undefined ? { description: request.description } : {}),
          ...(request.annotations !== undefined ? { annotations: request.annotations } : {}),
          annotationsTrusted: trusted,
          arguments: input,
          ...(request.inputSchema !== undefined ? { inputSchema: request.inputSchema } : {}),
          ...(match.stale !== undefined ? { approvalChanged: changeOf(match.stale, request.tool, now) } : {}),
          ...(request.requestedBy !== undefined ? { requestedBy: request.requestedBy } : {}),
          ...(request.appInstance === true ? { appCard: true } : {}),
        },
        {
          ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
          ...(request.toolUseId !== undefined ? { toolUseId: request.toolUseId } : {}),
          signal,
        },
      )
      .finally(() => this.asking.delete(ask));

    if (isWithdrawal(outcome)) {
      // A policy stored while this prompt was open (parallel calls) covers it.
      const covered = this.allowedByPolicy(request, input);
      if (covered !== undefined) return covered;
      await this.record(request, input, undefined, 'deny', 'host', outcome.note);
      return {
        allowed: false,
        decision: 'deny',
        reason: outcome.note,
        ...(outcome.noteMessage !== undefined ? { reasonMessage: outcome.noteMessage } : {}),
        decidedBy: 'host',
      };
    }
    if (outcome.decision === 'deny') {
      await this.record(request, input, undefined, 'deny', 'person');
      return {
        allowed: false,
        decision: 'deny',
        ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
        decidedBy: 'person',
      };
    }
    const sent = outcome.arguments ?? input;
    const edited = outcome.arguments !== undefined && argumentsDigest(outcome.arguments) !== argumentsDigest(input);
    const scope = scopeFor(outcome.decision, request);
    // What the person saw in the prompt is what they approved, even if the tool changed while they looked.
    const policy = scope === undefined ? undefined : await this.policies.add(scope, approvalFor(scope, now));
    await this.record(request, input, edited ? sent : undefined, outcome.decision, 'person');
    if (policy !== undefined) {
      this.changed();
      this.closeCoveredPrompts();
    }
    return {
      allowed: true,
      decision: outcome.decision,
      arguments: sent,
      edited,
      decidedBy: 'person',
      ...(policy !== undefined ? { policy: this.view(policy) } : {}),
    };
  }

  /**
   * Store a rule the person wrote for `server`. It covers the tools the server
   * lists now that fall under it, each as listed now (fingerprinted like a
   * tool's permission), on this server identity only: a tool added or changed
   * later asks again. NOT_READY unless the server is ready (its tools are
   * what the rule is judged on); INVALID_INPUT when no tool falls under it.
   */
  async addRule(server: string, rule: ConsentRule): Promise<ConsentPolicy> {
    await this.policies.load();
    const { scope, approval } = ruleApproval(server, rule, this.options.serverNow?.(server));
    const policy = await this.policies.add(scope, approval);
    this.changed();
    this.closeCoveredPrompts();
    return this.view(policy);
  }

  /** Every policy, broadest first (server, rule, tool, conversation), each saying whether it still applies. */
  listPolicies(): ConsentPolicy[] {
    return this.policies.list().map((policy) => this.view(policy));
  }

  /** Revoke one policy; NOT_FOUND for an unknown id. */
  async revokePolicy(id: string): Promise<ConsentPolicy> {
    const policy = await this.policies.revoke(id);
    this.changed();
    return this.view(policy);
  }

  /** The server left the config: its policies go with it (a new server of the same name starts with none). */
  async forgetServer(server: string): Promise<void> {
    if (await this.policies.updateServer(server, () => undefined)) this.changed();
  }

  /**
   * The person edited a server in Berth. A rename carries its policies over;
   * a new command or address keeps them (bound to it) only if the person said
   * so, and otherwise revokes them. Policies that were stale already stay stale.
   */
  async serverEdited(edit: ServerEdit): Promise<void> {
    const sameServer = edit.fromIdentity === edit.toIdentity;
    if (sameServer && edit.from === edit.to) return;
    const changed = await this.policies.updateServer(edit.from, (policy) => {
      if (!sameServer && !edit.keep) return undefined;
      const rebind = policy.approval?.server === edit.fromIdentity;
      if (!rebind && edit.from === edit.to) return policy;
      return {
        ...policy,
        server: edit.to,
        ...(rebind && policy.approval !== undefined
          ? { approval: { ...policy.approval, server: edit.toIdentity } }
          : {}),
      };
    });
    if (changed) this.changed();
  }

  /** A server changed (started, listed new tools, got a new config): announce policies that became stale or fresh. */
  serversChanged(): void {
    if (this.announcedList() !== this.announced) this.changed();
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

  private view(policy: StoredPolicy): ConsentPolicy {
    return viewOf(policy, this.options.serverNow?.(policy.server));
  }

  private announcedList(): string {
    return JSON.stringify(this.listPolicies());
  }

  private allowedByPolicy(
    request: ToolCallConsentRequest,
    input: JsonObject,
  ): Promise<ToolCallConsentVerdict> | undefined {
    const policy = this.policies.match(request, currentOf(request)).allowed;
    return policy === undefined ? undefined : this.allowedBy(policy, request, input);
  }

  private allowedBy(
    policy: StoredPolicy,
    request: ToolCallConsentRequest,
    input: JsonObject,
  ): Promise<ToolCallConsentVerdict> {
    const decision: Exclude<AuditDecision, 'deny'> =
      policy.scope === 'server'
        ? 'always-server'
        : policy.scope === 'rule'
          ? 'allow-rule'
          : policy.scope === 'tool'
            ? 'always-tool'
            : 'allow-conversation';
    const decidedBy: DecidedBy = `policy:${policy.id}`;
    return this.record(request, input, undefined, decision, decidedBy).then(() => ({
      allowed: true,
      decision,
      arguments: input,
      edited: false,
      decidedBy,
      policy: this.view(policy),
    }));
  }

  /** Prompts now covered by a policy (for what they show) end; their callers re-check and find the policy. */
  private closeCoveredPrompts(): void {
    for (const ask of [...this.asking]) {
      if (this.policies.match(ask.request, currentOf(ask.request)).allowed !== undefined) ask.cover.abort(COVERED_NOTE);
    }
  }

  private async record(
    request: ToolCallConsentRequest,
    asked: JsonObject,
    sent: JsonObject | undefined,
    decision: AuditDecision,
    decidedBy: DecidedBy,
    note?: string,
  ): Promise<void> {
    // Keys in the schema's order: appendBuilt writes the object as it is (see AuditLog.appendBuilt).
    const entry: AuditEntry = {
      time: new Date(this.now()).toISOString(),
      server: request.server,
      tool: request.tool,
      ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
      ...(request.requestedBy !== undefined ? { requestedBy: request.requestedBy } : {}),
      argumentsDigest: argumentsDigest(asked),
      ...(sent !== undefined ? { sentArgumentsDigest: argumentsDigest(sent) } : {}),
      decision,
      decidedBy,
      edited: sent !== undefined,
      ...(note !== undefined ? { note } : {}),
    };
    try {
      await this.audit.appendBuilt(entry);
    } catch (error) {
      // The decision stands; a lost audit line must still be visible to the person.
      this.warn(
        `audit log: could not record ${decision} for ${request.server}/${request.tool} in ${this.audit.filePath}: ${(error as Error).message}`,
      );
    }
  }

  private changed(): void {
    const list = this.listPolicies();
    this.announced = JSON.stringify(list);
    for (const listener of [...this.listeners]) listener(list);
  }

  private warn(text: string): void {
    this.options.logs.append({ server: '', time: this.now(), source: 'host', level: 'warning', text });
  }
}
