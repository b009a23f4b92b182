import { DEFAULT_SAMPLING_LIMITS } from '../../shared/domain/sampling-limits';
import type {
  ConfiguredLimits,
  SamplingTokenPlan,
  SamplingUsage,
  TokenUsage,
} from '../../shared/domain/sampling-limits';

/** Options for {@linkcode SamplingBudget}. */
export interface SamplingBudgetOptions {
  /** Read on every request, so a change in the settings applies to the next one. */
  limits?: (server: string) => ConfiguredLimits;
}

/** A refusal: the text goes to the server as the error message and to the person as a notice. */
export interface BudgetRefusal {
  ok: false;
  message: string;
  usage: SamplingUsage;
}

/** Tokens held back for one model call until its usage is known. */
export interface TokenReservation {
  readonly server: string;
  readonly maxTokens: number;
}

interface Account {
  used: number;
  inFlight: number;
  requests: number;
  refused: number;
}

/** What a server spent and may still spend, as the notice tells the person. */
function spentText(server: string, usage: SamplingUsage): string {
  const { used, inFlight, limits } = usage;
  const pending =
    inFlight > 0 ? ` (and ${inFlight.toLocaleString('en-US')} more are held for requests still running)` : '';
  return `server '${server}' has used ${used.toLocaleString('en-US')} of its ${limits.sessionBudget.toLocaleString('en-US')}-token sampling budget for this Berth session${pending}`;
}

/**
 * Bounds what each server's sampling requests may spend: a cap on one
 * request's `max_tokens`, and a budget of input + output tokens (as the model
 * reports them) per Berth session. The session is this run of Berth: the count
 * survives the server's restarts and reconnects, so a server cannot reset its
 * budget by crashing; the person resets it by hand, and removing the server
 * forgets it. Requests at the model hold their `max_tokens` back from the
 * budget, so concurrent requests cannot overspend it together.
 */
export class SamplingBudget {
  private readonly accounts = new Map<string, Account>();
  private readonly changeListeners = new Set<(usage: SamplingUsage) => void>();
  private readonly refusalListeners = new Set<(refusal: BudgetRefusal & { server: string }) => void>();
  private readonly limitsOf: (server: string) => ConfiguredLimits;

  constructor(options: SamplingBudgetOptions = {}) {
    this.limitsOf = options.limits ?? (() => ({ limits: DEFAULT_SAMPLING_LIMITS, custom: false }));
  }

  usage(server: string): SamplingUsage {
    const account = this.accounts.get(server) ?? { used: 0, inFlight: 0, requests: 0, refused: 0 };
    const { limits, custom } = this.limitsOf(server);
    return { server, limits: { ...limits }, custom, ...account };
  }

  /** Every server that spent or was refused anything this session. */
  list(): SamplingUsage[] {
    return [...this.accounts.keys()].sort((a, b) => a.localeCompare(b)).map((server) => this.usage(server));
  }

  /**
   * The `max_tokens` to propose for a request (the server's value, capped, and
   * no more than what is left of the budget), or a refusal when nothing is left.
   */
  plan(server: string, requested: number): { ok: true; plan: SamplingTokenPlan } | BudgetRefusal {
    const usage = this.usage(server);
    const left = usage.limits.sessionBudget - usage.used - usage.inFlight;
    if (left <= 0) return this.refuse(server, usage);
    let proposed = Math.max(1, Math.floor(requested));
    let limitedBy: SamplingTokenPlan['limitedBy'];
    if (proposed > usage.limits.maxTokens) [proposed, limitedBy] = [usage.limits.maxTokens, 'cap'];
    if (proposed > left) [proposed, limitedBy] = [left, 'budget'];
    return {
      ok: true,
      plan: {
        requested,
        proposed,
        ...(limitedBy !== undefined ? { limitedBy } : {}),
        limits: usage.limits,
        used: usage.used,
      },
    };
  }

  /**
   * Hold `maxTokens` (no more than what is left) for a call about to start.
   * Checked again here because the budget may have been spent while the
   * person was reviewing.
   */
  reserve(server: string, maxTokens: number): { ok: true; reservation: TokenReservation } | BudgetRefusal {
    const usage = this.usage(server);
    const left = usage.limits.sessionBudget - usage.used - usage.inFlight;
    if (left <= 0) return this.refuse(server, usage);
    const reservation = { server, maxTokens: Math.min(maxTokens, left) };
    this.update(server, (account) => ({ ...account, inFlight: account.inFlight + reservation.maxTokens }));
    return { ok: true, reservation };
  }

  /**
   * The call finished: count what the model reported (input + output). With no
   * report (the provider gave none, or the call was cancelled mid-way) the
   * reserved `max_tokens` is counted, the most the answer could have cost in output.
   * Returns the tokens counted.
   */
  settle(reservation: TokenReservation, reported: TokenUsage | undefined): number {
    const counted = reported === undefined ? reservation.maxTokens : reported.inputTokens + reported.outputTokens;
    this.update(reservation.server, (account) => ({
      ...account,
      used: account.used + counted,
      inFlight: Math.max(0, account.inFlight - reservation.maxTokens),
      requests: account.requests + 1,
    }));
    return counted;
  }

  /** The call failed before the model answered: nothing was spent. */
  release(reservation: TokenReservation): void {
    this.update(reservation.server, (account) => ({
      ...account,
      inFlight: Math.max(0, account.inFlight - reservation.maxTokens),
    }));
  }

  /** The person gives the server a fresh budget (requests at the model stay held). */
  reset(server: string): SamplingUsage {
    this.update(server, (account) => ({ used: 0, inFlight: account.inFlight, requests: 0, refused: 0 }));
    return this.usage(server);
  }

  /** The server was removed: its count goes with it. */
  forget(server: string): void {
    if (this.accounts.delete(server)) this.emitChange(server);
  }

  /** The limits of a server changed in the settings: tell whoever shows them. */
  limitsChanged(server: string): void {
    this.emitChange(server);
  }

  onChange(listener: (usage: SamplingUsage) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** A request was refused for lack of budget: the person should hear about it, not only the server. */
  onRefusal(listener: (refusal: BudgetRefusal & { server: string }) => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }

  private refuse(server: string, before: SamplingUsage): BudgetRefusal {
    this.update(server, (account) => ({ ...account, refused: account.refused + 1 }));
    const usage = this.usage(server);
    const exhausted = before.used >= before.limits.sessionBudget;
    const message = exhausted
      ? `Sampling budget exhausted: ${spentText(server, usage)}. The person can raise or reset it in Berth (the server's Overview).`
      : `Sampling budget fully held: ${spentText(server, usage)}. Try again when they finish.`;
    const refusal: BudgetRefusal = { ok: false, message, usage };
    for (const listener of [...this.refusalListeners]) listener({ ...refusal, server });
    return refusal;
  }

  private update(server: string, change: (account: Account) => Account): void {
    const account = this.accounts.get(server) ?? { used: 0, inFlight: 0, requests: 0, refused: 0 };
    this.accounts.set(server, change(account));
    this.emitChange(server);
  }

  private emitChange(server: string): void {
    const usage = this.usage(server);
    for (const listener of [...this.changeListeners]) listener(usage);
  }
}
