import { randomUUID } from 'node:crypto';
import { consentError } from '../../shared/domain/consent-errors';
import { HostError } from '../../shared/result';
import { pendingError } from '../../shared/domain/pending-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { PENDING_KINDS, PENDING_SCHEMAS } from '../../shared/domain/pending';
import type {
  PendingChange,
  PendingCounts,
  PendingKind,
  PendingOutcome,
  PendingPayload,
  PendingRequest,
  PendingRequestOf,
  PendingResponse,
  PendingWithdrawal,
} from '../../shared/domain/pending';
import type { Worded } from '../../shared/domain/host-wording';
import { withdrawal } from '../../shared/domain/withdrawal';

/** Why a request is withdrawn: the host's words with their code, or a caller's own words (an abort reason). */
export type WithdrawalNote = string | Worded;

/** Options for one waiting request. */
export interface OpenOptions<K extends PendingKind> {
  /** Aborting withdraws the request (the server cancelled it, the tool call was stopped). */
  signal?: AbortSignal;
  conversationId?: string;
  toolUseId?: string;
  /** The Berth task the question belongs to (PendingRequest.taskId). */
  taskId?: string;
  /**
   * A check beyond the kind's schema (e.g. form values against the form).
   * Returning a message makes `answer()` fail with INVALID_INPUT and keeps the
   * request open, so the person can fix the answer.
   */
  validate?: (response: PendingResponse<K>) => CodedText | undefined;
  /** Told the new request's id once it is open (a task Berth runs for a server shows which question it waits on). */
  onOpened?: (id: string) => void;
}

/** Options for {@linkcode PendingRequests}. */
export interface PendingRequestsOptions {
  /** Requests one server may have waiting at once; more are withdrawn at once (default 20). */
  maxPerServer?: number;
  now?: () => number;
  newId?: () => string;
}

interface Waiting {
  request: PendingRequest;
  settle: (outcome: object) => void;
  validate?: (response: never) => CodedText | undefined;
  cleanup: () => void;
}

function abortNote(signal: AbortSignal): WithdrawalNote {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string' && reason.trim() !== '') return reason;
  // The DOMException of a plain abort() says nothing useful to a person.
  if (reason instanceof Error && reason.name !== 'AbortError' && reason.message !== '')
    return `cancelled: ${reason.message}`;
  return withdrawal('withdrawal.cancelled', {});
}

/** A withdrawal as `open()` resolves it: the English note, and its code when the host wrote it. */
function withdrawn(note: WithdrawalNote): PendingWithdrawal {
  return typeof note === 'string'
    ? { withdrawn: true, note }
    : { withdrawn: true, note: note.text, noteMessage: note.message };
}

/**
 * The one queue of everything that waits for the person: tool-call consent,
 * sampling review (request and answer), elicitation. Every request ends —
 * answered, withdrawn because its server went away or cancelled it, or
 * withdrawn because the window closed — so no caller ever hangs.
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<(change: PendingChange) => void>();
  private readonly maxPerServer: number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(options: PendingRequestsOptions = {}) {
    this.maxPerServer = options.maxPerServer ?? 20;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** Queue a request; resolves with the person's answer or a withdrawal. Never rejects for a valid payload. */
  open<K extends PendingKind>(
    kind: K,
    server: string,
    payload: PendingPayload<K>,
    options: OpenOptions<K> = {},
  ): Promise<PendingOutcome<K>> {
    // The payload is built by the host; a mismatch is a bug, caught here rather than in the renderer.
    const parsed = PENDING_SCHEMAS[kind].payload.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw HostError.coded(
        'INTERNAL',
        pendingError('pending-errors.payload-mismatch', {
          kind,
          path: issue?.path.join('.') || 'payload',
          detail: issue?.message ?? 'invalid',
        }),
      );
    }
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve(withdrawn(abortNote(signal)));
    const fromServer = [...this.waiting.values()].filter((w) => w.request.server === server).length;
    if (fromServer >= this.maxPerServer) {
      return Promise.resolve(withdrawn(withdrawal('withdrawal.too-many-waiting', { server, count: fromServer })));
    }
    const request = {
      id: this.newId(),
      kind,
      server,
      ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
      ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
      ...(options.taskId !== undefined ? { taskId: options.taskId } : {}),
      createdAt: this.now(),
      payload: parsed.data,
    } as PendingRequestOf<K>;
    return new Promise<PendingOutcome<K>>((resolve) => {
      const onAbort = () => this.withdraw(request.id, abortNote(signal as AbortSignal));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.id, {
        request,
        settle: (outcome) => resolve(outcome as PendingOutcome<K>),
        ...(options.validate !== undefined
          ? { validate: options.validate as (response: never) => CodedText | undefined }
          : {}),
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      this.emit({ type: 'opened', request });
      options.onOpened?.(request.id);
    });
  }

  /**
   * The person answered. Unknown id → NOT_FOUND (it may have been withdrawn
   * meanwhile); an answer of the wrong shape → INVALID_INPUT, request stays open.
   */
  answer(id: string, response: unknown): void {
    const entry = this.waiting.get(id);
    if (entry === undefined)
      throw HostError.coded('NOT_FOUND', consentError('consent-errors.pending-not-found', { id }));
    const { kind } = entry.request;
    const parsed = PENDING_SCHEMAS[kind].response.safeParse(response);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      const detail = issue?.message ?? 'invalid';
      throw HostError.coded(
        'INVALID_INPUT',
        path === ''
          ? pendingError('pending-errors.answer-invalid', { kind, detail })
          : pendingError('pending-errors.answer-invalid-at', { kind, path, detail }),
        path || undefined,
      );
    }
    const problem = entry.validate?.(parsed.data as never);
    if (problem !== undefined) throw HostError.coded('INVALID_INPUT', problem);
    this.finish(id, parsed.data);
    this.emit({ type: 'answered', id, kind });
  }

  /** End one request without an answer; its caller sees `{ withdrawn: true, note }`. False when it is no longer waiting. */
  withdraw(id: string, note: WithdrawalNote): boolean {
    const entry = this.waiting.get(id);
    if (entry === undefined) return false;
    const outcome = withdrawn(note);
    this.finish(id, outcome);
    this.emit({
      type: 'withdrawn',
      id,
      kind: entry.request.kind,
      server: entry.request.server,
      note: outcome.note,
      ...(outcome.noteMessage !== undefined ? { noteMessage: outcome.noteMessage } : {}),
    });
    return true;
  }

  /** The server disconnected (or was removed): withdraw all of its requests. Returns how many. */
  withdrawServer(server: string, note: WithdrawalNote): number {
    return this.withdrawWhere((r) => r.server === server, note);
  }

  /** The renderer went away: every request ends, and callers treat a withdrawal as deny/reject/cancel. */
  withdrawAll(note: WithdrawalNote): number {
    return this.withdrawWhere(() => true, note);
  }

  /** Withdraw every waiting request that matches; returns how many. */
  withdrawWhere(match: (request: PendingRequest) => boolean, note: WithdrawalNote): number {
    const ids = [...this.waiting.values()].filter((w) => match(w.request)).map((w) => w.request.id);
    for (const id of ids) this.withdraw(id, note);
    return ids.length;
  }

  get(id: string): PendingRequest | undefined {
    return this.waiting.get(id)?.request;
  }

  /** Every waiting request, oldest first. */
  list(): PendingRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  counts(): PendingCounts {
    const counts = Object.fromEntries(PENDING_KINDS.map((kind) => [kind, 0])) as Record<PendingKind, number>;
    for (const { request } of this.waiting.values()) counts[request.kind] += 1;
    return { ...counts, total: this.waiting.size };
  }

  /** Every change, with the counts after it. Returns an unsubscribe function. */
  onChange(listener: (change: PendingChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private finish(id: string, outcome: object): void {
    const entry = this.waiting.get(id);
    if (entry === undefined) return;
    this.waiting.delete(id);
    entry.cleanup();
    entry.settle(outcome);
  }

  private emit(change: PendingChange['change']): void {
    const event: PendingChange = { change, counts: this.counts() };
    for (const listener of [...this.listeners]) listener(event);
  }
}
