import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerState } from '../../shared/domain/server';
import type { EventAction, EventSubscription } from '../../shared/domain/mcp-events';
import { errorMessage } from '../../shared/error-message';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import {
  EVENTS_METHODS,
  EVENTS_NOTIFICATIONS,
  EventDefinitionSchema,
  EventListResultSchema,
  declaredEvents,
  type EventDefinition,
  type EventOccurrence,
  type SubscriptionRequest,
} from './events-draft';
import { takeIn, type RefusedEvent } from './event-intake';
import { PollLoop, type PollBatch } from './poll-loop';
import { PushStreams } from './push-streams';
import type { EventServers } from './event-servers';

export type { EventServers } from './event-servers';
import type { SubscriptionStore } from './subscription-store';

/** What the person set when subscribing. */
export interface NewSubscription {
  server: string;
  event: string;
  arguments: Record<string, unknown>;
  action: EventAction;
  prompt?: string;
}

/** One server's event types as `events/list` gave them, with what could not be read. */
export interface ServerEventTypes {
  types: EventDefinition[];
  /** Entries of the list Berth refused, with why. */
  refused: Array<{ index: number; problem: string }>;
  problem?: string;
}

export interface McpEventsOptions {
  servers: EventServers;
  store: SubscriptionStore;
  /** New occurrences of a subscription, saved (cursor and ids) before this is called. */
  deliver: (subscription: EventSubscription, events: EventOccurrence[]) => void;
  /** Something for the subscription's detail: refused occurrences, a failed poll. */
  report: (subscription: EventSubscription, report: SubscriptionReport) => void;
  /** The event types or the subscriptions changed: views read them again. */
  onChange: () => void;
  /** The client's floor between polls (ms); tests lower it. Default POLL_FLOOR_MS. */
  pollFloorMs?: number;
  /** Replay bound sent as maxAgeMs: an old cursor never dumps an unbounded backlog. Default one week. */
  maxAgeMs?: number;
  /** A push stream with neither event nor heartbeat for this long is reopened (default 60 s). */
  pushSilenceMs?: number;
}

export type SubscriptionReport =
  | { kind: 'refused'; events: RefusedEvent[]; malformed: PollBatch['malformed'] }
  | { kind: 'delivery-failed'; message: string; retryInMs: number }
  | { kind: 'terminated'; reason: string }
  | { kind: 'truncated' };

const AnyObject = z.looseObject({});
/** events/list pages followed; a server that keeps sending cursors is cut off. */
const MAX_LIST_PAGES = 20;
const WEEK_MS = 7 * 24 * 60 * 60_000;

/**
 * MCP Events for every server that declares them (the draft extension, events-draft.ts): the event types each
 * offers (`events/list`, again on `notifications/events/list_changed`), and the person's subscriptions, each polled
 * while its server is ready and it is not paused. A batch's cursor and event ids are saved before its events are
 * delivered, so a restart resumes from the cursor without loss and without delivering one twice.
 */
export class McpEventsService implements ServerLifecycleListener {
  private readonly types = new Map<string, ServerEventTypes>();
  private readonly loops = new Map<string, PollLoop>();
  /** When each server's current session became ready: its events are listed once per session. */
  private readonly session = new Map<string, number>();
  /** Subscriptions delivered by push (`events/stream`) where the event type offers it. */
  private readonly push: PushStreams;
  private readonly pushed = new Set<string>();
  private readonly listing = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly options: McpEventsOptions) {
    this.push = new PushStreams({
      servers: options.servers,
      request: (id) => this.requestOf(id),
      onBatch: (id, batch) => this.saveBatch(id, batch),
      onError: (id, message, retryInMs) => this.reportTo(id, { kind: 'delivery-failed', message, retryInMs }),
      onTerminated: (id, reason) => {
        this.reportTo(id, { kind: 'terminated', reason });
        void this.options.store.update(id, { paused: true }).then(() => this.options.onChange());
        this.pushed.delete(id);
      },
      ...(options.pushSilenceMs !== undefined ? { silenceMs: options.pushSilenceMs } : {}),
    });
  }

  clientSetup(server: string, client: Client): void {
    this.push.clientSetup(server, client);
    client.setNotificationHandler(EVENTS_NOTIFICATIONS.listChanged, { params: AnyObject.optional() }, () => {
      if (this.options.servers.isCurrentClient(server, client)) void this.refreshTypes(server);
    });
  }

  serverChanged(state: ServerState): void {
    if (this.stopped) return;
    const offers = state.status === 'ready' && declaredEvents(state.capabilities) !== undefined;
    if (!offers) {
      this.stopLoops(state.name);
      this.session.delete(state.name);
      if (this.types.delete(state.name)) this.options.onChange();
      return;
    }
    // Once per session: a ready server's other changes (its tools, its log level) leave its events as they were.
    if (this.session.get(state.name) === state.readySince) return;
    this.session.set(state.name, state.readySince);
    void this.refreshTypes(state.name).then(() => this.startLoops(state.name));
  }

  serverRemoved(server: string): void {
    this.session.delete(server);
    this.stopLoops(server);
    this.types.delete(server);
  }

  shuttingDown(): void {
    this.stopped = true;
    for (const loop of this.loops.values()) void loop.stop();
    this.loops.clear();
    for (const id of this.pushed) void this.push.stop(id);
    this.pushed.clear();
  }

  /** The event types of `server`; undefined when it offers none (or is not ready). */
  eventTypes(server: string): ServerEventTypes | undefined {
    return this.types.get(server);
  }

  /** Every server that offers events now, with its types. */
  serversWithEvents(): ReadonlyMap<string, ServerEventTypes> {
    return this.types;
  }

  /** Subscriptions delivering now (polled or streamed). */
  deliveringCount(): number {
    return this.loops.size + this.pushed.size;
  }

  subscriptions(): readonly EventSubscription[] {
    return this.options.store.list();
  }

  /** Saves a new subscription and starts it (polling from now: the first poll's null cursor). */
  async subscribe(input: NewSubscription): Promise<EventSubscription> {
    const type = this.types.get(input.server)?.types.find((candidate) => candidate.name === input.event);
    if (type === undefined) throw new Error(`${input.server} offers no event "${input.event}"`);
    if (!type.delivery.includes('poll') && !type.delivery.includes('push'))
      throw new Error(
        `${input.server}'s "${input.event}" is delivered only by ${type.delivery.join(', ')}: Berth receives events by poll or push`,
      );
    const subscription: EventSubscription = {
      id: randomUUID(),
      server: input.server,
      event: input.event,
      arguments: input.arguments,
      action: input.action,
      ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
      paused: false,
      createdAt: Date.now(),
      cursor: null,
      seen: [],
    };
    await this.options.store.add(subscription);
    this.startLoop(subscription);
    this.options.onChange();
    return subscription;
  }

  async setPaused(id: string, paused: boolean): Promise<void> {
    const subscription = await this.options.store.update(id, { paused });
    if (paused) await this.stopLoop(id);
    else if (this.offers(subscription.server)) this.startLoop(subscription);
    this.options.onChange();
  }

  async unsubscribe(id: string): Promise<void> {
    await this.stopLoop(id);
    await this.options.store.remove(id);
    this.options.onChange();
  }

  private offers(server: string): boolean {
    const state = this.options.servers.get(server);
    return state?.status === 'ready' && declaredEvents(state.capabilities) !== undefined;
  }

  private refreshTypes(server: string): Promise<void> {
    const running = this.listing.get(server);
    if (running !== undefined) return running;
    const listing = this.listTypes(server)
      .then((types) => {
        this.types.set(server, types);
        this.options.onChange();
      })
      .finally(() => this.listing.delete(server));
    this.listing.set(server, listing);
    return listing;
  }

  private async listTypes(server: string): Promise<ServerEventTypes> {
    const result: ServerEventTypes = { types: [], refused: [] };
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
        const raw = await this.send(server, EVENTS_METHODS.list, cursor === undefined ? {} : { cursor }, 'list events');
        const list = EventListResultSchema.safeParse(raw);
        if (!list.success) throw new Error('events/list answered with a malformed result');
        for (const entry of list.data.events) {
          const type = EventDefinitionSchema.safeParse(entry);
          const index = result.types.length + result.refused.length;
          if (!type.success)
            result.refused.push({ index, problem: type.error.issues[0]?.message ?? 'not an event type' });
          else if (result.types.some((known) => known.name === type.data.name))
            result.refused.push({ index, problem: `the name ${type.data.name} is listed twice` });
          else result.types.push(type.data);
        }
        cursor = list.data.nextCursor;
        if (cursor === undefined) return result;
      }
      result.problem = `events/list kept sending pages: only the first ${MAX_LIST_PAGES} were read`;
    } catch (error) {
      result.problem = errorMessage(error);
    }
    return result;
  }

  private startLoops(server: string): void {
    if (this.stopped || !this.offers(server)) return;
    for (const subscription of this.options.store.list())
      if (subscription.server === server && !subscription.paused) this.startLoop(subscription);
  }

  /** Push where the event type offers it (events come as they happen), else poll. */
  private startLoop(subscription: EventSubscription): void {
    if (this.stopped || this.loops.has(subscription.id) || this.pushed.has(subscription.id)) return;
    const { id } = subscription;
    const type = this.types.get(subscription.server)?.types.find((candidate) => candidate.name === subscription.event);
    if (type?.delivery.includes('push') === true) {
      this.pushed.add(id);
      this.push.start(id, subscription.server);
      return;
    }
    const loop = new PollLoop({
      send: (request, signal) =>
        this.send(subscription.server, EVENTS_METHODS.poll, { ...request }, 'poll events', signal),
      request: () => this.requestOf(id),
      onBatch: (batch) => this.saveBatch(id, batch),
      onError: (error, retryInMs) =>
        this.reportTo(id, { kind: 'delivery-failed', message: errorMessage(error), retryInMs }),
      ...(this.options.pollFloorMs !== undefined ? { floorMs: this.options.pollFloorMs } : {}),
    });
    this.loops.set(id, loop);
    loop.start();
  }

  private reportTo(id: string, report: SubscriptionReport): void {
    const subscription = this.options.store.get(id);
    if (subscription !== undefined) this.options.report(subscription, report);
  }

  private requestOf(id: string): SubscriptionRequest {
    const subscription = this.options.store.get(id);
    if (subscription === undefined) throw new Error(`No event subscription ${id}`);
    return {
      name: subscription.event,
      arguments: subscription.arguments,
      cursor: subscription.cursor,
      maxAgeMs: this.options.maxAgeMs ?? WEEK_MS,
    };
  }

  /** Dedup and checks, then the cursor and ids saved, then delivery: a crash between the two loses nothing twice. */
  private async saveBatch(id: string, batch: PollBatch): Promise<void> {
    const subscription = this.options.store.get(id);
    if (subscription === undefined) return;
    const type = this.types.get(subscription.server)?.types.find((candidate) => candidate.name === subscription.event);
    const intake = takeIn(batch.events, subscription.seen, type?.payloadSchema);
    const saved = await this.options.store.advance(id, {
      cursor: batch.cursor,
      seen: intake.seen,
      truncated: batch.truncated,
    });
    // The first position is news for the person (the subscription is live); later ones are not worth a catalog.
    if (subscription.cursor === null && saved.cursor !== null) this.options.onChange();
    if (batch.truncated) this.options.report(saved, { kind: 'truncated' });
    if (intake.refused.length > 0 || batch.malformed.length > 0)
      this.options.report(saved, { kind: 'refused', events: intake.refused, malformed: batch.malformed });
    if (intake.fresh.length > 0) this.options.deliver(saved, intake.fresh);
  }

  private stopLoops(server: string): void {
    for (const subscription of this.options.store.list())
      if (subscription.server === server) void this.stopLoop(subscription.id);
  }

  private async stopLoop(id: string): Promise<void> {
    const loop = this.loops.get(id);
    this.loops.delete(id);
    await loop?.stop();
    if (this.pushed.delete(id)) await this.push.stop(id);
  }

  private send(
    server: string,
    method: string,
    params: Record<string, unknown>,
    action: string,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    return this.options.servers.request(server, { method, what: '', action, signal }, (client, timeoutMs) =>
      client.request({ method, params } as Parameters<Client['request']>[0], AnyObject, {
        timeout: timeoutMs,
        ...(signal !== undefined ? { signal } : {}),
      }),
    );
  }
}
