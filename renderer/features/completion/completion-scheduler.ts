import type { CompletionRef, CompletionResult } from '../../../shared/contract/prompts';
import type { Failure, Result } from '../../../shared/result';

/** What to complete: one argument of a prompt or resource template, with the other arguments filled so far. */
export interface CompletionQuery {
  server: string;
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Already-filled arguments, so the server can narrow its suggestions (e.g. a lead for the chosen department). */
  context?: Record<string, string>;
}

export type CompletionState =
  | { status: 'idle'; values: [] }
  | { status: 'loading'; values: string[] }
  | { status: 'ready'; values: string[]; total?: number; hasMore?: boolean }
  /** The failure, worded where it is shown so a language switch re-words it. */
  | { status: 'error'; values: []; failure: Failure };

export const IDLE_COMPLETION: CompletionState = { status: 'idle', values: [] };

/** Quiet time after the last keystroke before asking the server. */
export const COMPLETION_DEBOUNCE_MS = 150;

export interface CompletionSchedulerOptions {
  complete: (query: {
    server: string;
    ref: CompletionRef;
    argument: { name: string; value: string };
    context?: { arguments: Record<string, string> };
  }) => Promise<Result<CompletionResult>>;
  onState: (state: CompletionState) => void;
  delayMs?: number;
}

/**
 * Debounces completion requests for one field and keeps only the newest
 * answer: each keystroke restarts the timer, and an answer to an older
 * request is dropped (the host also cancels the older request at the server).
 */
export class CompletionScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every request and by cancel(): an answer is applied only if its number is still current. */
  private latest = 0;
  private values: string[] = [];

  constructor(private readonly options: CompletionSchedulerOptions) {}

  request(query: CompletionQuery): void {
    this.clearTimer();
    const ticket = ++this.latest;
    // Old suggestions stay visible while the new ones load, so the list does not flicker.
    this.options.onState({ status: 'loading', values: this.values });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.send(query, ticket);
    }, this.options.delayMs ?? COMPLETION_DEBOUNCE_MS);
  }

  /** Forget pending work (the field lost focus or went away); late answers are ignored. */
  cancel(): void {
    this.clearTimer();
    this.latest++;
    this.values = [];
  }

  private async send(query: CompletionQuery, ticket: number): Promise<void> {
    const { server, ref, argument, context } = query;
    const result = await this.options.complete({
      server,
      ref,
      argument,
      ...(context !== undefined ? { context: { arguments: context } } : {}),
    });
    if (ticket !== this.latest) return;
    if (!result.ok) {
      this.values = [];
      this.options.onState({ status: 'error', values: [], failure: result });
      return;
    }
    // A newer request for the same field overtook this one at the host; its own answer follows.
    if (result.value.superseded === true) return;
    const { values, total, hasMore } = result.value;
    this.values = values;
    this.options.onState({
      status: 'ready',
      values,
      ...(total !== undefined ? { total } : {}),
      ...(hasMore !== undefined ? { hasMore } : {}),
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
