import type { RequestOrigin } from './running-tool-calls';

/** What a question a server asks (sampling, elicitation) carries besides its params. */
export interface QuestionContext {
  /** Aborted when the question is no longer wanted (the server cancelled, the task was cancelled or ran out of time). */
  signal: AbortSignal;
  /** Told each pending id the question opens. */
  onQuestion?: (pendingId: string) => void;
  /** The Berth task the question belongs to, when a server asked for it as a task. */
  taskId?: string;
  /** The chat call the question is for, when the request says (a 2026-07-28 call's input request); else guessed from the running calls. */
  origin?: RequestOrigin;
}
