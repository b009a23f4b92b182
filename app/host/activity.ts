import { IDLE, sameActivity, type HostActivity } from '../../shared/domain/background';

/** Where each count comes from (the chat, the task registry, MCP Events, the pending requests). */
export interface ActivitySources {
  replies(): number;
  tasks(): number;
  subscriptions(): number;
  waiting(): number;
}

/**
 * What runs in the host, kept current: recounted (once per tick, however many events came) when anything that can
 * change it happens, and told only when it changed — for the tray and for deciding whether Berth may stop with no
 * window open.
 */
export class ActivityWatch {
  private last: HostActivity = IDLE;
  private scheduled = false;

  constructor(
    private readonly sources: ActivitySources,
    private readonly onChange: (activity: HostActivity) => void,
  ) {}

  current(): HostActivity {
    return this.count();
  }

  /** Something that may change the counts happened: recount soon, tell if they changed. */
  touch(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const now = this.count();
      if (sameActivity(now, this.last)) return;
      this.last = now;
      this.onChange(now);
    });
  }

  private count(): HostActivity {
    return {
      replies: this.sources.replies(),
      tasks: this.sources.tasks(),
      subscriptions: this.sources.subscriptions(),
      waiting: this.sources.waiting(),
    };
  }
}
