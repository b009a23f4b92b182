/*
 * Berth while its window is closed (issue 35): what runs, and what the person chose to happen then. Zod-free: the
 * renderer's first screen and main/ read it.
 */

/** When the last window closes: keep running always, only while work runs (the default), or quit. */
export const BACKGROUND_MODES = ['always', 'while-working', 'quit'] as const;
export type BackgroundMode = (typeof BACKGROUND_MODES)[number];
export const DEFAULT_BACKGROUND_MODE: BackgroundMode = 'while-working';

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

/** Whether anything would be cut short by quitting now (a waiting request counts: it would be answered "no"). */
export function isWorking(activity: HostActivity): boolean {
  return activity.replies + activity.tasks + activity.subscriptions + activity.waiting > 0;
}

export function sameActivity(a: HostActivity, b: HostActivity): boolean {
  return (
    a.replies === b.replies && a.tasks === b.tasks && a.subscriptions === b.subscriptions && a.waiting === b.waiting
  );
}
