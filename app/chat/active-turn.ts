import type { ChatUsage } from '../../shared/domain/chat';
import type { HostMessage } from '../../shared/domain/host-message';
import type { RetryWaits } from '../providers/model-call-retries';

/** How a turn ended: what `TurnHandle.done` settles with. */
export type TurnOutcome =
  | { status: 'finished'; stopReason: string }
  | { status: 'stopped' }
  | { status: 'failed'; message: string; hostMessage?: HostMessage; contextFull?: true };

/** A turn while it runs: what the engine's loop, the saving and the tool calls share. */
export interface ActiveTurn {
  conversationId: string;
  turnId: string;
  controller: AbortController;
  /** Settles when the turn is over (also when it never got past preparing). */
  done: Promise<TurnOutcome>;
  /** What each model request of the turn used, for the turn's total. */
  usages: ChatUsage[];
  /** Summary requests (compaction) not yet saved: the next saved reply carries them, so a reload's totals include them. */
  unsavedUsages: ChatUsage[];
  /** The model cannot use tools (marked so, or it refused them): the rest of the turn is asked without any. */
  withoutTools?: boolean;
  /** The model refused images: the rest of the turn is asked without any (as for one marked so). */
  withoutImages?: boolean;
  /** The person was told this turn's images were left out (once per turn). */
  toldNoImages?: boolean;
  /** A message of this turn was saved (a reply, a partial one, tool results): a failure then leaves no message unanswered. */
  replied?: boolean;
  /** Continue: the turn goes on from the unfinished reply that ends the conversation. */
  continuing?: boolean;
  /** Make room before the next request whatever the estimate says (Compact and retry, or after a refusal). */
  forceCompact?: boolean;
  /** The waits before the model is asked again (rate limit, network): Retry now ends the current one. */
  waits: RetryWaits;
  /** Regenerate with another model: this turn's requests go to it; the conversation keeps its own model. */
  model?: string;
  /** The provider's words when it refused a request of this turn as too long (once: a second refusal ends the turn). */
  refusal?: string;
}
