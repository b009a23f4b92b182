import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { INBOX_LIMIT, InboxEntrySchema, type EventSubscription, type InboxEntry } from '../../shared/domain/mcp-events';
import { SerialFile } from '../config/serial-file';
import { loadStateFile } from '../config/state-file';
import type { EventOccurrence } from './events-draft';

const FileSchema = z.object({ version: z.literal(1), entries: z.array(InboxEntrySchema) });

/**
 * The Inbox: events kept for the person to read, newest last, at most INBOX_LIMIT (the oldest go first), in
 * `event-inbox.json` beside the subscriptions. An unreadable file is moved aside and said so.
 */
export class EventInbox {
  private entries: InboxEntry[] = [];
  /** The last removal, for Undo (in memory: a restart forgets it). */
  private lastRemoved: InboxEntry[] = [];
  readonly filePath: string;
  private readonly file: SerialFile;
  problem: string | undefined;
  /** Why saving must stay refused (the unusable file could not even be moved aside): it is never overwritten unread. */
  private saveBlocked: string | undefined;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.filePath = join(dataDir, 'event-inbox.json');
    this.file = new SerialFile(this.filePath);
  }

  async load(): Promise<void> {
    const loaded = await loadStateFile(this.filePath, FileSchema, this.now);
    if (loaded.kind === 'loaded') this.entries = loaded.data.entries;
    else if (loaded.kind === 'unusable') {
      this.problem = loaded.message;
      this.saveBlocked = loaded.saveBlocked;
    }
  }

  list(): readonly InboxEntry[] {
    return this.entries;
  }

  unread(): number {
    return this.entries.reduce((count, entry) => count + (entry.read ? 0 : 1), 0);
  }

  /** Keeps the occurrences of one subscription; returns the entries made. */
  async add(subscription: EventSubscription, events: readonly EventOccurrence[]): Promise<InboxEntry[]> {
    const made = events.map((event): InboxEntry => ({
      id: randomUUID(),
      subscriptionId: subscription.id,
      server: subscription.server,
      event: subscription.event,
      eventId: event.eventId,
      timestamp: event.timestamp,
      receivedAt: this.now(),
      data: event.data,
      read: false,
    }));
    this.entries = [...this.entries, ...made].slice(-INBOX_LIMIT);
    await this.save();
    return made;
  }

  /** Marks entries read (every entry when `ids` is undefined). */
  async markRead(ids?: readonly string[]): Promise<void> {
    const wanted = ids === undefined ? undefined : new Set(ids);
    this.entries = this.entries.map((entry) =>
      wanted === undefined || wanted.has(entry.id) ? { ...entry, read: true } : entry,
    );
    await this.save();
  }

  /** Removes entries (every entry when `ids` is undefined); returns those removed, kept until the next removal for Undo. */
  async remove(ids?: readonly string[]): Promise<InboxEntry[]> {
    const wanted = ids === undefined ? undefined : new Set(ids);
    const removed = this.entries.filter((entry) => wanted === undefined || wanted.has(entry.id));
    this.entries = this.entries.filter((entry) => !(wanted === undefined || wanted.has(entry.id)));
    this.lastRemoved = removed;
    await this.save();
    return removed;
  }

  /** Undo: the entries of the last removal named by `ids` go back in order of arrival. Others' ids are ignored. */
  async restore(ids: readonly string[]): Promise<void> {
    const wanted = new Set(ids);
    const back = this.lastRemoved.filter((entry) => wanted.has(entry.id));
    this.lastRemoved = this.lastRemoved.filter((entry) => !wanted.has(entry.id));
    const present = new Set(this.entries.map((entry) => entry.id));
    this.entries = [...this.entries, ...back.filter((entry) => !present.has(entry.id))]
      .sort((a, b) => a.receivedAt - b.receivedAt)
      .slice(-INBOX_LIMIT);
    await this.save();
  }

  private save(): Promise<void> {
    if (this.saveBlocked !== undefined)
      return Promise.reject(new Error(`${this.filePath} is not saved: ${this.saveBlocked}`));
    const text = `${JSON.stringify({ version: 1, entries: this.entries })}\n`;
    return this.file.write(text);
  }
}
