/*
 * Berth while its window is closed (issue 35): what runs in the host. Zod-free: the renderer's first screen and main/
 * read it.
 */

/** What runs in the host now: what a tray says, and what decides whether Berth may stop when no window is open. */
export interface HostActivity {
  /** Chat replies being written (a turn running). */
  replies: number;
  /** Tasks running on servers (not yet in a final state). */
  tasks: number;
  /** Event subscriptions delivering (not paused, their server ready). */
  subscriptions: number;
  /** Requests waiting for the person (consent, sampling, elicitation, roots). */
  waiting: number;
}

export const IDLE: HostActivity = { replies: 0, tasks: 0, subscriptions: 0, waiting: 0 };

export function sameActivity(a: HostActivity, b: HostActivity): boolean {
  return (
    a.replies === b.replies && a.tasks === b.tasks && a.subscriptions === b.subscriptions && a.waiting === b.waiting
  );
}
