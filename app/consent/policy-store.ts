import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { HostError } from '../../shared/result';
import { ConsentPolicySchema } from '../../shared/domain/consent';
import type { ConsentPolicy } from '../../shared/domain/consent';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';

export const POLICIES_FILE = 'policies.json';

const StoredPolicySchema = ConsentPolicySchema.refine((p) => p.scope !== 'conversation', 'conversation policies are never stored');
const FileSchema = z.object({ version: z.literal(1), policies: z.array(StoredPolicySchema) });

/** What a new policy covers (its id and time are assigned by the store). */
export type PolicyScope =
  | { scope: 'server'; server: string }
  | { scope: 'tool'; server: string; tool: string }
  | { scope: 'conversation'; server: string; tool: string; conversationId: string };

/** What a tool call is, for matching against policies. */
export interface ToolCallIdentity {
  server: string;
  tool: string;
  conversationId: string;
}

/** Options for {@linkcode PolicyStore}. */
export interface PolicyStoreOptions {
  stateDir: string;
  /** A problem the person should know about (corrupt file moved aside, failed save). */
  warn: (text: string) => void;
  now?: () => number;
  newId?: () => string;
}

function sameScope(policy: ConsentPolicy, scope: PolicyScope): boolean {
  if (policy.scope !== scope.scope || policy.server !== scope.server) return false;
  if (policy.scope === 'server') return true;
  if (policy.tool !== (scope as { tool: string }).tool) return false;
  return policy.scope === 'tool' || policy.conversationId === (scope as { conversationId: string }).conversationId;
}

/** Precedence when several policies cover one call: the broadest first, as the settings list them. */
const PRECEDENCE: Record<ConsentPolicy['scope'], number> = { server: 0, tool: 1, conversation: 2 };

/**
 * The stored "yes" decisions. Server- and tool-wide policies persist in
 * `<stateDir>/policies.json` (atomic writes, saves serialized); conversation
 * policies live in memory. A corrupt file is moved aside with a message, never
 * silently replaced.
 */
export class PolicyStore {
  private policies: ConsentPolicy[] = [];
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

  list(): ConsentPolicy[] {
    return [...this.policies].sort((a, b) => PRECEDENCE[a.scope] - PRECEDENCE[b.scope] || a.createdAt - b.createdAt);
  }

  /** The policy that allows this call, broadest first; undefined when the person must be asked. */
  match(call: ToolCallIdentity): ConsentPolicy | undefined {
    return this.list().find(
      (p) =>
        p.server === call.server &&
        (p.scope === 'server' || (p.tool === call.tool && (p.scope === 'tool' || p.conversationId === call.conversationId))),
    );
  }

  /** Add a policy (an identical one is reused). Resolves once a persistent one is saved or the failure reported. */
  async add(scope: PolicyScope): Promise<ConsentPolicy> {
    await this.load();
    const existing = this.policies.find((p) => sameScope(p, scope));
    if (existing !== undefined) return existing;
    const policy = { ...scope, id: this.newId(), createdAt: this.now() } as ConsentPolicy;
    this.policies.push(policy);
    if (policy.scope !== 'conversation') await this.save();
    return policy;
  }

  /** Remove one policy; NOT_FOUND when there is no such id. */
  async revoke(id: string): Promise<ConsentPolicy> {
    await this.load();
    const index = this.policies.findIndex((p) => p.id === id);
    const policy = this.policies[index];
    if (policy === undefined) throw new HostError('NOT_FOUND', `no consent policy '${id}': it was revoked already or never existed`);
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
    const snapshot = `${JSON.stringify({ version: 1, policies: stored }, null, 2)}\n`;
    const write = this.writing.then(() => atomicWriteFile(this.filePath, snapshot));
    this.writing = write.catch((error: unknown) => {
      this.options.warn(`could not save ${this.filePath}: ${(error as Error).message}; the change lasts until Berth restarts`);
    });
    await this.writing;
  }
}
