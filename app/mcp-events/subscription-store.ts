import { join } from 'node:path';
import { z } from 'zod';
import { EventSubscriptionSchema, SEEN_EVENT_IDS, type EventSubscription } from '../../shared/domain/mcp-events';
import { SerialFile } from '../config/serial-file';
import { loadStateFile } from '../config/state-file';

const FileSchema = z.object({ version: z.literal(1), subscriptions: z.array(EventSubscriptionSchema) });

/** Where a subscription stands after a batch: its cursor and the event ids it has now seen. */
export interface SubscriptionAdvance {
  cursor: string | null | undefined;
  seen: readonly string[];
  truncated: boolean;
}

/**
 * The person's event subscriptions, in `event-subscriptions.json` of Berth's data folder, each with its cursor and
 * the last event ids seen — saved before a batch's events are delivered, so a restart resumes where it was and
 * never delivers one twice. Writes are atomic and one at a time. A file that cannot be read is moved aside (and
 * said so), never overwritten unread.
 */
export class SubscriptionStore {
  private subscriptions: EventSubscription[] = [];
  readonly filePath: string;
  private readonly file: SerialFile;
  /** Why the saved list could not be used at start-up, when it could not. */
  problem: string | undefined;
  /** Why saving must stay refused (the unusable file could not even be moved aside). */
  private saveBlocked: string | undefined;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.filePath = join(dataDir, 'event-subscriptions.json');
    this.file = new SerialFile(this.filePath);
  }

  async load(): Promise<void> {
    const loaded = await loadStateFile(this.filePath, FileSchema, this.now);
    if (loaded.kind === 'loaded') this.subscriptions = loaded.data.subscriptions;
    else if (loaded.kind === 'unusable') {
      this.problem = loaded.message;
      this.saveBlocked = loaded.saveBlocked;
    }
  }

  list(): readonly EventSubscription[] {
    return this.subscriptions;
  }

  get(id: string): EventSubscription | undefined {
    return this.subscriptions.find((subscription) => subscription.id === id);
  }

  async add(subscription: EventSubscription): Promise<void> {
    this.subscriptions = [...this.subscriptions, subscription];
    await this.save();
  }

  async update(id: string, patch: Partial<Omit<EventSubscription, 'id' | 'server'>>): Promise<EventSubscription> {
    const current = this.get(id);
    if (current === undefined) throw new Error(`No event subscription ${id}`);
    const next = { ...current, ...patch };
    this.subscriptions = this.subscriptions.map((subscription) => (subscription.id === id ? next : subscription));
    await this.save();
    return next;
  }

  /** Saves the subscription's new position (a missing cursor keeps the old one); the newest ids seen are kept. */
  async advance(id: string, { cursor, seen, truncated }: SubscriptionAdvance): Promise<EventSubscription> {
    return this.update(id, {
      ...(cursor !== undefined ? { cursor } : {}),
      seen: seen.slice(-SEEN_EVENT_IDS),
      ...(truncated ? { truncatedAt: this.now() } : {}),
    });
  }

  async remove(id: string): Promise<void> {
    this.subscriptions = this.subscriptions.filter((subscription) => subscription.id !== id);
    await this.save();
  }

  private save(): Promise<void> {
    if (this.saveBlocked !== undefined)
      return Promise.reject(new Error(`${this.filePath} is not saved: ${this.saveBlocked}`));
    const text = `${JSON.stringify({ version: 1, subscriptions: this.subscriptions }, null, 2)}\n`;
    return this.file.write(text);
  }
}
