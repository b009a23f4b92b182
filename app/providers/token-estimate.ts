import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { CHARS_PER_TOKEN, estimateTokens } from '../../shared/domain/chat-usage';
import { visibleTools } from './deferred-tools';

// Berth's one token estimate, per model key (a provider and its model). Providers count with
// tokenizers Berth does not have, so the rule of thumb (CHARS_PER_TOKEN) is only a start: after each
// request the engine tells the estimator what it estimated for that request and what the provider
// reported, and the ratio corrects every later estimate for that model — the tool budget, the
// result cap, the context meter and compaction all read it here, so they agree with the provider. The
// factors are kept for the next run (app/chat/context/token-calibration.ts); the per-conversation anchors are not.

/** What an image or a PDF costs, as the result cap counts it (about a full-size image on Anthropic). */
export const MEDIA_TOKENS = 1_600;

/** Where a request's tokens go, as the context meter shows them. */
export interface RequestParts {
  tools: number;
  system: number;
  /** The messages' text, tool calls and results. */
  history: number;
  /** Images and documents, wherever they are (attachments, tool results). */
  attachments: number;
}

/** A request as the estimator reads it (LlmStreamRequest's shape). */
export interface EstimatedRequest {
  system?: string | undefined;
  tools?: readonly unknown[] | undefined;
  /** MessageParams, or saved messages (their blocks are measured the same way). */
  messages: readonly (MessageParam | { role: string; content: readonly unknown[] })[];
}

const isMedia = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  ((value as { type?: unknown }).type === 'image' || (value as { type?: unknown }).type === 'document');

/** Characters of `value` as JSON, with every image and document left out and counted in `media` instead. */
function measure(value: unknown, counts: { chars: number; media: number }): void {
  if (isMedia(value)) {
    counts.media += 1;
    return;
  }
  if (Array.isArray(value)) {
    counts.chars += 2;
    for (const item of value) measure(item, counts);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    counts.chars += 2;
    for (const [key, inner] of Object.entries(value)) {
      counts.chars += key.length + 4;
      measure(inner, counts);
    }
    return;
  }
  counts.chars += JSON.stringify(value ?? null).length;
}

/** The uncorrected estimate of a request's parts (CHARS_PER_TOKEN characters a token, media at MEDIA_TOKENS). */
export function rawRequestParts(request: EstimatedRequest): RequestParts {
  const counts = { chars: 0, media: 0 };
  for (const message of request.messages) measure(message, counts);
  // Deferred tools cost nothing until a tool result loads them (deferred-tools.ts).
  const tools = visibleTools(request.tools, request.messages);
  return {
    tools: tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools)),
    system: request.system === undefined ? 0 : estimateTokens(request.system),
    history: Math.ceil(counts.chars / CHARS_PER_TOKEN),
    attachments: counts.media * MEDIA_TOKENS,
  };
}

export function partsTotal(parts: RequestParts): number {
  return parts.tools + parts.system + parts.history + parts.attachments;
}

/** A correction outside this range is a provider reporting something else (no usage, a cached-only count): ignored. */
export const MIN_FACTOR = 0.25;
export const MAX_FACTOR = 4;
/** How much a new observation moves the factor: the latest request says most about the next one. */
const NEW_WEIGHT = 0.7;

/** The last request of a conversation: what Berth estimated and what the provider counted. */
interface Anchor {
  model: string;
  raw: number;
  reported: number;
}

/** Options for {@linkcode TokenEstimator}. */
export interface TokenEstimatorOptions {
  /** Corrections learnt in an earlier run (app/chat/context/token-calibration.ts), by model key; out-of-range ones are ignored. */
  factors?: Iterable<readonly [string, number]>;
  /** After each correction, with every model's factor (to be saved for the next run). Must not throw. */
  onCorrected?: (factors: ReadonlyMap<string, number>) => void;
}

/** One estimate per model key, corrected by what the provider reports. */
export class TokenEstimator {
  private readonly factors = new Map<string, number>();
  private readonly anchors = new Map<string, Anchor>();

  constructor(private readonly options: TokenEstimatorOptions = {}) {
    for (const [model, factor] of options.factors ?? [])
      if (factor >= MIN_FACTOR && factor <= MAX_FACTOR) this.factors.set(model, factor);
  }

  /** Reported ÷ estimated for `model` so far (1 before any request). */
  factor(model: string): number {
    return this.factors.get(model) ?? 1;
  }

  /** Whether a provider's count of `model` corrected the estimate yet. */
  calibrated(model: string): boolean {
    return this.factors.has(model);
  }

  /** Tokens of `text` sent to `model`. */
  tokens(model: string, text: string): number {
    return Math.ceil(estimateTokens(text) * this.factor(model));
  }

  /**
   * Characters a token of `model`, for the limits that cut text by length (the result cap). Never
   * more than CHARS_PER_TOKEN: the factor is learnt from whole prompts, and a result's own text may be
   * denser than they were (logs, numbers), so a correction may tighten a limit but never loosen it.
   */
  charsPerToken(model: string): number {
    return CHARS_PER_TOKEN / Math.max(1, this.factor(model));
  }

  /** A request to `model`, part by part. */
  parts(model: string, request: EstimatedRequest): RequestParts {
    const raw = rawRequestParts(request);
    const factor = this.factor(model);
    return {
      tools: Math.ceil(raw.tools * factor),
      system: Math.ceil(raw.system * factor),
      history: Math.ceil(raw.history * factor),
      attachments: Math.ceil(raw.attachments * factor),
    };
  }

  /**
   * The whole request to `model`. With `conversation`, anchored on that conversation's last request
   * to the same model: the provider's own count of it, plus the corrected estimate of what changed
   * since (mostly the newest messages) — a prose reply and a JSON tool list tokenize differently, so
   * one factor for the whole prompt would drift as the mix changes; the count the provider gave does not.
   */
  request(model: string, request: EstimatedRequest, conversation?: string): number {
    const anchor = conversation === undefined ? undefined : this.anchors.get(conversation);
    if (anchor === undefined || anchor.model !== model) return partsTotal(this.parts(model, request));
    const raw = partsTotal(rawRequestParts(request));
    return Math.max(0, Math.round(anchor.reported + (raw - anchor.raw) * this.factor(model)));
  }

  /**
   * What the provider said `request` took (its whole prompt: uncached input, cache reads and writes).
   * Zero means the provider said nothing (a local server without usage) and teaches nothing.
   */
  observe(model: string, request: EstimatedRequest, reportedPromptTokens: number, conversation?: string): void {
    const raw = partsTotal(rawRequestParts(request));
    if (raw <= 0 || reportedPromptTokens <= 0) return;
    const ratio = reportedPromptTokens / raw;
    if (ratio < MIN_FACTOR || ratio > MAX_FACTOR) return;
    const before = this.factors.get(model);
    this.factors.set(model, before === undefined ? ratio : before + (ratio - before) * NEW_WEIGHT);
    if (conversation !== undefined) this.anchors.set(conversation, { model, raw, reported: reportedPromptTokens });
    this.options.onCorrected?.(this.factors);
  }

  /** The conversation is gone (or was compacted): its anchor no longer describes its requests. */
  forget(conversation: string): void {
    this.anchors.delete(conversation);
  }
}
