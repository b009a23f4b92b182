import type { PendingWithdrawal } from '../../shared/domain/pending';
import type { RootConsent, RootConsentResponse, RootView } from '../../shared/domain/roots';
import type { RootsStore } from './roots-store';

/**
 * Ask the person whether `server` may see `roots` (none of which it has seen
 * before). Resolves with the ids allowed — every other asked root is denied —
 * or with a withdrawal (window closed, request cancelled), after which nothing
 * is remembered and the question comes up again next time.
 */
export type RootsAsk = (
  server: string,
  roots: RootView[],
  signal?: AbortSignal,
) => Promise<RootConsentResponse | PendingWithdrawal>;

function isWithdrawn(outcome: RootConsentResponse | PendingWithdrawal): outcome is PendingWithdrawal {
  return 'withdrawn' in outcome && outcome.withdrawn;
}

/**
 * "Ask the person before a server first sees a root." Answers are kept in the
 * {@linkcode RootsStore} (so they survive restarts); a denied root stays
 * hidden from that server until {@linkcode RootsConsent.resetConsent}.
 * Answers belong to the server identity they were given to (`identityOf`:
 * its command and arguments, or address): a different program under the
 * same name is asked again.
 */
export class RootsConsent {
  /** One question per server at a time: a second `roots/list` waits for the first answer instead of asking twice. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: RootsStore,
    private readonly identityOf: (server: string) => string | undefined = () => undefined,
  ) {}

  /** The answers that apply to `server` as it is now: none when they were given to another identity (or to an unrecorded one). */
  answersFor(server: string): RootConsent {
    const stored = this.store.consentFor(server);
    const identity = this.identityOf(server);
    return stored.identity === identity
      ? { allowed: stored.allowed, denied: stored.denied }
      : { allowed: [], denied: [] };
  }

  /** The server's command or address was edited and the person kept its approvals: its answers now belong to the new identity. */
  async rebind(server: string, fromIdentity: string, toIdentity: string): Promise<void> {
    const stored = this.store.consentFor(server);
    if (stored.identity !== fromIdentity) return;
    await this.store.recordConsent(server, { allowed: stored.allowed, denied: stored.denied, identity: toIdentity });
  }

  /**
   * The usable roots `server` may see and the person allowed, asking about
   * exposed roots it has not been asked about yet. Rejects only if `ask` does.
   */
  visibleRoots(server: string, ask: RootsAsk, signal?: AbortSignal): Promise<RootView[]> {
    const previous = this.inFlight.get(server) ?? Promise.resolve();
    const run = previous.then(() => this.resolve(server, ask, signal));
    const settled = run.catch(() => undefined);
    this.inFlight.set(server, settled);
    void settled.then(() => {
      if (this.inFlight.get(server) === settled) this.inFlight.delete(server);
    });
    return run;
  }

  /** Forget answers for `server` (all, or about `rootIds`) so it is asked again; the server is told its roots changed. */
  resetConsent(server: string, rootIds?: string[]): Promise<void> {
    return this.store.resetConsent(server, rootIds);
  }

  private async resolve(server: string, ask: RootsAsk, signal?: AbortSignal): Promise<RootView[]> {
    const identity = this.identityOf(server);
    const answered = this.answersFor(server);
    const unasked = this.usable(server).filter(
      (r) => !answered.allowed.includes(r.id) && !answered.denied.includes(r.id),
    );
    if (unasked.length > 0 && signal?.aborted !== true) {
      const outcome = await ask(server, unasked, signal);
      if (!isWithdrawn(outcome)) {
        const asked = new Set(unasked.map((r) => r.id));
        const allowed = outcome.allow.filter((id) => asked.has(id));
        const denied = [...asked].filter((id) => !allowed.includes(id));
        await this.store.recordConsent(server, { allowed, denied, ...(identity !== undefined ? { identity } : {}) });
      }
    }
    // Read again: roots may have been removed, re-exposed or gone missing while the person thought.
    const { allowed } = this.answersFor(server);
    return this.usable(server).filter((r) => allowed.includes(r.id));
  }

  private usable(server: string): RootView[] {
    return this.store.rootsFor(server).filter((r) => !r.missing);
  }
}
