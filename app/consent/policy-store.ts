import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { consentError } from '../../shared/domain/consent-errors';
import { HostError } from '../../shared/result';
import { ConsentPolicySchema } from '../../shared/domain/consent';
import type { ConsentPolicy } from '../../shared/domain/consent';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import type { ConsentRule } from '../../shared/domain/consent-rules';
import { PolicyApprovalSchema, ruleStaleness, staleness } from './approval-fingerprint';
import type { CurrentApproval, PolicyApproval } from './approval-fingerprint';
import { canonicalJson } from './canonical-json';

export const POLICIES_FILE = 'policies.json';

/** A policy as the store keeps it: with what it approved (absent only in files from before version 2). */
export type StoredPolicy = (ConsentPolicy extends infer P ? (P extends unknown ? Omit<P, 'stale'> : never) : never) & {
  approval?: PolicyApproval;
};

const StoredPolicySchema = z
  .intersection(ConsentPolicySchema, z.object({ approval: PolicyApprovalSchema.optional() }))
  .refine((p) => p.scope !== 'conversation', 'conversation policies are never stored')
  .transform((p): StoredPolicy => {
    // `stale` is computed for lists, never stored.
    const { stale: _ignored, ...policy } = p;
    return policy;
  });
/** Version 1 recorded no approvals: its policies load as `unrecorded` and never allow a call until given again. */
const FileSchema = z.object({ version: z.union([z.literal(1), z.literal(2)]), policies: z.array(StoredPolicySchema) });
const FILE_VERSION = 2;

/** What a new policy covers (its id and time are assigned by the store). */
export type PolicyScope =
  | { scope: 'server'; server: string }
  | { scope: 'rule'; server: string; rule: ConsentRule; tools: string[] }
  | { scope: 'tool'; server: string; tool: string }
  | { scope: 'conversation'; server: string; tool: string; conversationId: string };

/** What a tool call is, for matching against policies. */
export interface ToolCallIdentity {
  server: string;
  tool: string;
  /** None for an app shown outside a conversation (a preview): no conversation policy covers it. */
  conversationId?: string | undefined;
}

/** Options for {@linkcode PolicyStore}. */
export interface PolicyStoreOptions {
  stateDir: string;
  /** A problem the person should know about (corrupt file moved aside, failed save). */
  warn: (text: string) => void;
  now?: () => number;
  newId?: () => string;
}

/** What a matching call finds: the policy that allows it, or else the most specific one that would have but is stale. */
export interface PolicyMatch {
  allowed?: StoredPolicy;
  stale?: { policy: StoredPolicy; reason: NonNullable<ConsentPolicy['stale']> };
}

function sameScope(policy: StoredPolicy, scope: PolicyScope): boolean {
  if (policy.scope !== scope.scope || policy.server !== scope.server) return false;
  if (policy.scope === 'server') return true;
  if (policy.scope === 'rule')
    return scope.scope === 'rule' && canonicalJson(policy.rule) === canonicalJson(scope.rule);
  if (scope.scope === 'rule') return false;
  if (policy.tool !== (scope as { tool: string }).tool) return false;
  return policy.scope === 'tool' || policy.conversationId === (scope as { conversationId: string }).conversationId;
}

/** Precedence when several policies cover one call: the broadest first, as the settings list them. */
const PRECEDENCE: Record<ConsentPolicy['scope'], number> = { server: 0, rule: 1, tool: 2, conversation: 3 };

function byPrecedence(a: StoredPolicy, b: StoredPolicy): number {
  return PRECEDENCE[a.scope] - PRECEDENCE[b.scope] || a.createdAt - b.createdAt;
}

/**
 * The stored "yes" decisions. Server- and tool-wide policies persist in
 * `<stateDir>/policies.json` (atomic writes, saves serialized); conversation
 * policies live in memory. A corrupt file is moved aside with a message, never
 * silently replaced.
 */
export class PolicyStore {
  private policies: StoredPolicy[] = [];
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private problem: string | undefined;
  /** Set when the file on disk must not be overwritten (it could not be read or moved aside). */
  private saveBlocked: string | undefined;
  readonly filePath: string;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: PolicyStoreOptions) {
    this.filePath = join(options.stateDir, POLICIES_FILE);
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** Read the file once; later calls share the same promise. Never rejects. */
  load(): Promise<void> {
    this.loading ??= this.readFromDisk();
    return this.loading;
  }

  /** Why the stored policies could not be used at start, if they could not. */
  get loadProblem(): string | undefined {
    return this.problem;
  }

  list(): StoredPolicy[] {
    return [...this.policies].sort(byPrecedence);
  }

  /**
   * The policy that allows this call (broadest first), judged against what is
   * there now; else the narrowest policy whose scope covers the call but whose
   * approval no longer fits (the prompt says what changed).
   */
  match(call: ToolCallIdentity, now: CurrentApproval): PolicyMatch {
    // Filtered before sorting (the sort is stable, so the order is the same): every tool call matches, and most policies are other servers'.
    const covering = this.policies
      .filter(
        (p) =>
          p.server === call.server &&
          (p.scope === 'server' ||
            p.scope === 'rule' ||
            (p.tool === call.tool && (p.scope === 'tool' || p.conversationId === call.conversationId))),
      )
      .sort(byPrecedence);
    let stale: PolicyMatch['stale'];
    for (const policy of covering) {
      let reason: ReturnType<typeof staleness>;
      if (policy.scope === 'rule') {
        // A rule covers the tools it recorded, each as it was then: a tool added or changed since asks.
        const judged = ruleStaleness(policy.approval, call.tool, now);
        if (!judged.covered) continue;
        reason = judged.stale;
      } else {
        reason = staleness(policy.approval, now, policy.scope !== 'server');
      }
      if (reason === undefined) return { allowed: policy };
      stale = { policy, reason };
    }
    return stale === undefined ? {} : { stale };
  }

  /**
   * Add a policy for what was approved. One of the same scope is reused when
   * it approved the same thing, and replaced (new id) when it did not: a
   * policy's id always stands for one approval.
   */
  async add(scope: PolicyScope, approval: PolicyApproval): Promise<StoredPolicy> {
    await this.load();
    const existing = this.policies.find((p) => sameScope(p, scope));
    if (existing !== undefined && canonicalJson(existing.approval ?? null) === canonicalJson(approval)) return existing;
    const policy = { ...scope, id: this.newId(), createdAt: this.now(), approval } as StoredPolicy;
    this.policies = [...this.policies.filter((p) => p !== existing), policy];
    if (policy.scope !== 'conversation') await this.save();
    return policy;
  }

  /**
   * Rewrite or drop every policy of `server` (`change` returns the new policy,
   * or undefined to drop it); one save. Returns whether anything changed.
   */
  async updateServer(server: string, change: (policy: StoredPolicy) => StoredPolicy | undefined): Promise<boolean> {
    await this.load();
    let changed = false;
    let persistent = false;
    const next: StoredPolicy[] = [];
    for (const policy of this.policies) {
      const updated = policy.server === server ? change(policy) : policy;
      if (updated !== policy) {
        changed = true;
        if (policy.scope !== 'conversation') persistent = true;
      }
      if (updated !== undefined) next.push(updated);
    }
    this.policies = next;
    if (persistent) await this.save();
    return changed;
  }

  /** Remove one policy; NOT_FOUND when there is no such id. */
  async revoke(id: string): Promise<StoredPolicy> {
    await this.load();
    const index = this.policies.findIndex((p) => p.id === id);
    const policy = this.policies[index];
    if (policy === undefined)
      throw HostError.coded('NOT_FOUND', consentError('consent-errors.policy-not-found', { id }));
    this.policies.splice(index, 1);
    if (policy.scope !== 'conversation') await this.save();
    return policy;
  }

  /** Drop the in-memory policies of a conversation (it was deleted). Returns how many. */
  forgetConversation(conversationId: string): number {
    const before = this.policies.length;
    this.policies = this.policies.filter((p) => p.scope !== 'conversation' || p.conversationId !== conversationId);
    return before - this.policies.length;
  }

  /** Resolves when every save so far has finished. */
  flush(): Promise<void> {
    return this.writing;
  }

  private async readFromDisk(): Promise<void> {
    const loaded = await loadStateFile(this.filePath, FileSchema, this.now);
    if (loaded.kind === 'missing') return;
    if (loaded.kind === 'loaded') {
      this.policies = loaded.data.policies;
      return;
    }
    if (loaded.movedTo !== undefined) {
      this.problem = `${this.filePath} is corrupt (${loaded.problem}); moved it to ${loaded.movedTo}. No stored consent policies apply: Berth will ask before every tool call until you allow again`;
    } else {
      this.problem = `${loaded.message}; no stored consent policies apply until it can be read`;
      // Saving now would replace a file that may be fine: keep it untouched.
      this.saveBlocked = this.problem;
    }
    this.options.warn(this.problem);
  }

  private async save(): Promise<void> {
    if (this.saveBlocked !== undefined) {
      this.options.warn(`not saving ${this.filePath} (${this.saveBlocked}); the change lasts until Berth restarts`);
      return;
    }
    const stored = this.policies.filter((p) => p.scope !== 'conversation');
    const snapshot = `${JSON.stringify({ version: FILE_VERSION, policies: stored }, null, 2)}\n`;
    const write = this.writing.then(() => atomicWriteFile(this.filePath, snapshot));
    this.writing = write.catch((error: unknown) => {
      this.options.warn(
        `could not save ${this.filePath}: ${(error as Error).message}; the change lasts until Berth restarts`,
      );
    });
    await this.writing;
  }
}
