import type {
  EventNotice,
  EventsCatalog,
  EventSubscription,
  EventSubscriptionView,
  InboxEntry,
} from '../../shared/domain/mcp-events';
import type { ServerLifecycle } from '../servers/server-lifecycle';
import { EventActions, type EventConversations } from './event-actions';
import { EventInbox } from './event-inbox';
import {
  McpEventsService,
  type EventServers,
  type NewSubscription,
  type SubscriptionReport,
} from './mcp-events-service';
import { SubscriptionStore } from './subscription-store';

export interface McpEventsOptions {
  lifecycle: Pick<ServerLifecycle, 'register'>;
  servers: EventServers;
  stateDir: string;
  /** The chat, once open (it opens after the features): the conversation action needs it. */
  conversations: () => EventConversations | undefined;
  onCatalog: (catalog: EventsCatalog) => void;
  onInbox: (unread: number) => void;
  onNotice: (notice: EventNotice) => void;
  warn: (text: string) => void;
}

/**
 * MCP Events for one host: the subscriptions and their delivery (McpEventsService), the Inbox, and what each event
 * does (EventActions) — the seam the bridge and the host module use.
 */
export class McpEvents {
  private readonly store: SubscriptionStore;
  private readonly inbox: EventInbox;
  private readonly service: McpEventsService;
  private readonly actions: EventActions;
  /** What the person should see on each subscription: its last problem, the actions held back. */
  private readonly problems = new Map<string, string>();
  private readonly held = new Map<string, number>();

  constructor(private readonly options: McpEventsOptions) {
    this.store = new SubscriptionStore(options.stateDir);
    this.inbox = new EventInbox(options.stateDir);
    this.actions = new EventActions({
      inbox: this.inbox,
      notify: options.onNotice,
      conversations: {
        create: (title) => this.chat().create(title),
        exists: (id) => this.chat().exists(id),
        send: (id, text) => this.chat().send(id, text),
      },
      remember: async (id, conversationId) => {
        await this.store.update(id, { conversationId });
        this.changed();
      },
      heldBack: (id, count) => {
        this.held.set(id, count);
        this.changed();
      },
      failed: (id, message) => this.problem(id, `A conversation could not start: ${message}`),
    });
    this.service = new McpEventsService({
      servers: options.servers,
      store: this.store,
      deliver: (subscription, events) => {
        this.problems.delete(subscription.id);
        void this.actions
          .take(subscription, events)
          .then(() => this.options.onInbox(this.inbox.unread()))
          .catch((error: unknown) => this.problem(subscription.id, `Events could not be kept: ${String(error)}`));
      },
      report: (subscription, report) => this.report(subscription, report),
      onChange: () => this.changed(),
    });
    options.lifecycle.register(this.service);
  }

  /** Reads the saved subscriptions and Inbox (a file that cannot be read is moved aside and said so). */
  async load(): Promise<void> {
    await this.store.load();
    await this.inbox.load();
    for (const problem of [this.store.problem, this.inbox.problem])
      if (problem !== undefined) this.options.warn(problem);
  }

  catalog(): EventsCatalog {
    const servers = [...this.service.serversWithEvents()].map(([server, types]) => ({
      server,
      types: types.types.map(({ name, title, description, delivery, inputSchema, payloadSchema }) => ({
        name,
        delivery,
        ...(title !== undefined ? { title } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(inputSchema !== undefined ? { inputSchema } : {}),
        ...(payloadSchema !== undefined ? { payloadSchema } : {}),
      })),
      refused: types.refused.length,
      ...(types.problem !== undefined ? { problem: types.problem } : {}),
    }));
    return {
      servers,
      subscriptions: this.store.list().map((subscription) => this.view(subscription)),
      ...(this.store.problem !== undefined ? { problem: this.store.problem } : {}),
    };
  }

  async subscribe(input: NewSubscription): Promise<EventSubscriptionView> {
    return this.view(await this.service.subscribe(input));
  }

  async setPaused(id: string, paused: boolean): Promise<EventSubscriptionView> {
    await this.service.setPaused(id, paused);
    const subscription = this.store.get(id);
    if (subscription === undefined) throw new Error(`No event subscription ${id}`);
    return this.view(subscription);
  }

  async unsubscribe(id: string): Promise<{ removed: string }> {
    await this.service.unsubscribe(id);
    this.actions.forget(id);
    this.problems.delete(id);
    this.held.delete(id);
    return { removed: id };
  }

  inboxView(): { entries: InboxEntry[]; unread: number } {
    return { entries: [...this.inbox.list()], unread: this.inbox.unread() };
  }

  async markRead(ids?: readonly string[]): Promise<{ unread: number }> {
    await this.inbox.markRead(ids);
    return this.inboxChanged();
  }

  async removeFromInbox(ids?: readonly string[]): Promise<{ removed: InboxEntry[] }> {
    const removed = await this.inbox.remove(ids);
    this.inboxChanged();
    return { removed };
  }

  async restoreToInbox(ids: readonly string[]): Promise<{ unread: number }> {
    await this.inbox.restore(ids);
    return this.inboxChanged();
  }

  /** Subscriptions delivering now. */
  delivering(): number {
    return this.service.deliveringCount();
  }

  shuttingDown(): void {
    this.service.shuttingDown();
    this.actions.forget();
  }

  private chat(): EventConversations {
    const chat = this.options.conversations();
    if (chat === undefined) throw new Error('the chat is not open yet');
    return chat;
  }

  private inboxChanged(): { unread: number } {
    const unread = this.inbox.unread();
    this.options.onInbox(unread);
    return { unread };
  }

  private report(subscription: EventSubscription, report: SubscriptionReport): void {
    if (report.kind === 'delivery-failed')
      this.problem(subscription.id, `${report.message} (trying again in ${Math.ceil(report.retryInMs / 1000)} s)`);
    else if (report.kind === 'terminated') this.problem(subscription.id, `The server ended it: ${report.reason}`);
    else if (report.kind === 'refused') {
      const first = report.events[0]?.problem ?? report.malformed[0]?.problem;
      const count = report.events.length + report.malformed.length;
      this.problem(subscription.id, `${count} event${count === 1 ? '' : 's'} refused: ${first ?? 'malformed'}`);
    } else this.changed();
  }

  private problem(id: string, text: string): void {
    this.problems.set(id, text);
    this.changed();
  }

  private view(subscription: EventSubscription): EventSubscriptionView {
    const { seen: _seen, ...rest } = subscription;
    const problem = this.problems.get(subscription.id);
    const held = this.held.get(subscription.id);
    return {
      ...rest,
      ...(problem !== undefined ? { lastProblem: problem } : {}),
      ...(held !== undefined ? { heldBack: held } : {}),
    };
  }

  private changed(): void {
    this.options.onCatalog(this.catalog());
  }
}
