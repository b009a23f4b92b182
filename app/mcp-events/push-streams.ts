import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { errorMessage } from '../../shared/error-message';
import {
  EVENTS_METHODS,
  EVENTS_NOTIFICATIONS,
  EventOccurrenceSchema,
  SUBSCRIPTION_ID_META,
  type SubscriptionRequest,
} from './events-draft';
import { abortableSleep } from './abortable-sleep';
import type { PollBatch } from './poll-loop';
import type { EventServers } from './event-servers';

export interface PushStreamsOptions {
  servers: EventServers;
  /** The subscription as it stands (its cursor moves as events are saved). */
  request: (id: string) => SubscriptionRequest;
  /** Saves and delivers what arrived (one event, or a heartbeat's cursor); the next waits for it. */
  onBatch: (id: string, batch: PollBatch) => Promise<void>;
  /** The stream failed or went silent; it is opened again with the saved cursor after `retryInMs`. */
  onError: (id: string, message: string, retryInMs: number) => void;
  /** The server ended the subscription (`notifications/events/terminated`): not reopened. */
  onTerminated: (id: string, reason: string) => void;
  /** No event nor heartbeat for this long: the stream is dead (the draft: heartbeats at least every 30 s). */
  silenceMs?: number;
  /** The first wait before reopening a failed stream (doubles to five minutes). */
  retryMs?: number;
}

const Params = z.looseObject({ _meta: z.looseObject({}).optional() });
const AnyObject = z.looseObject({});
/** The longest timeout a timer takes: a push request has none of its own (the heartbeat is its liveness). */
const NO_TIMEOUT = 2_147_483_647;
/** How long a new stream may take to confirm itself (`notifications/events/active`). */
const ACTIVATION_MS = 30_000;
const MAX_RETRY_MS = 5 * 60_000;

interface Stream {
  id: string;
  server: string;
  controller: AbortController;
  stopped: boolean;
  /** The JSON-RPC id of the open request, learned from its `active` notification. */
  wireId?: string;
  activated?: () => void;
  lastHeard: number;
  /** Saves in arrival order. */
  saving: Promise<void>;
  running: Promise<void>;
}

/**
 * Push delivery (the draft's `events/stream`): one long-lived request per subscription; its notifications carry the
 * request's JSON-RPC id, which the SDK does not tell its caller — so streams of one server are opened one at a time,
 * and each learns its id from its own `notifications/events/active` before the next opens. Every event and
 * heartbeat advances the saved cursor; silence past `silenceMs`, a failure or the server closing the stream reopens it
 * from that cursor; only `terminated` (or stop) ends it.
 */
export class PushStreams {
  private readonly streams = new Map<string, Stream>();
  /** Per server, the opening under way: the next stream waits for it. */
  private readonly opening = new Map<string, Promise<void>>();
  /** Per server, the stream waiting for its `active`. */
  private readonly awaiting = new Map<string, Stream>();

  constructor(private readonly options: PushStreamsOptions) {}

  /** Routes the server's push notifications (each new SDK client, before it connects). */
  clientSetup(server: string, client: Client): void {
    const on = (method: string, handle: (stream: Stream, params: Record<string, unknown>) => void) =>
      client.setNotificationHandler(method, { params: Params }, (params) => {
        if (!this.options.servers.isCurrentClient(server, client)) return;
        const wireId = params._meta?.[SUBSCRIPTION_ID_META];
        const stream = this.route(server, method, wireId === undefined ? undefined : String(wireId));
        if (stream === undefined || stream.stopped) return;
        stream.lastHeard = Date.now();
        handle(stream, params);
      });
    on(EVENTS_NOTIFICATIONS.active, (stream, params) => {
      stream.activated?.();
      this.save(stream, { events: [], malformed: [], cursor: cursorOf(params), truncated: params.truncated === true });
    });
    on(EVENTS_NOTIFICATIONS.event, (stream, params) => {
      const { _meta: _routing, ...body } = params;
      const occurrence = EventOccurrenceSchema.safeParse(body);
      const batch: PollBatch = occurrence.success
        ? { events: [occurrence.data], malformed: [], cursor: cursorOf(params), truncated: false }
        : {
            events: [],
            malformed: [{ index: 0, problem: occurrence.error.issues[0]?.message ?? 'not an event' }],
            cursor: undefined,
            truncated: false,
          };
      this.save(stream, batch);
    });
    on(EVENTS_NOTIFICATIONS.heartbeat, (stream, params) =>
      this.save(stream, { events: [], malformed: [], cursor: cursorOf(params), truncated: false }),
    );
    on(EVENTS_NOTIFICATIONS.error, (stream, params) =>
      this.options.onError(stream.id, `the server reported: ${describeError(params.error)}`, 0),
    );
    on(EVENTS_NOTIFICATIONS.terminated, (stream, params) => {
      this.options.onTerminated(stream.id, describeError(params.error ?? params.reason));
      void this.stop(stream.id);
    });
  }

  start(id: string, server: string): void {
    if (this.streams.has(id)) return;
    const stream: Stream = {
      id,
      server,
      controller: new AbortController(),
      stopped: false,
      lastHeard: Date.now(),
      saving: Promise.resolve(),
      running: Promise.resolve(),
    };
    this.streams.set(id, stream);
    stream.running = this.run(stream);
  }

  async stop(id: string): Promise<void> {
    const stream = this.streams.get(id);
    if (stream === undefined) return;
    this.streams.delete(id);
    stream.stopped = true;
    stream.controller.abort();
    await stream.running;
    await stream.saving;
  }

  private route(server: string, method: string, wireId: string | undefined): Stream | undefined {
    for (const stream of this.streams.values())
      if (stream.server === server && wireId !== undefined && stream.wireId === wireId) return stream;
    // A stream's first `active` names the id it will be known by.
    const waiting = this.awaiting.get(server);
    if (method === EVENTS_NOTIFICATIONS.active && waiting !== undefined && wireId !== undefined) {
      waiting.wireId = wireId;
      return waiting;
    }
    return undefined;
  }

  private save(stream: Stream, batch: PollBatch): void {
    stream.saving = stream.saving
      .then(() => this.options.onBatch(stream.id, batch))
      .catch((error: unknown) => this.options.onError(stream.id, errorMessage(error), 0));
  }

  private async run(stream: Stream): Promise<void> {
    let failures = 0;
    const retryMs = this.options.retryMs ?? 1_000;
    while (!stream.stopped) {
      const ended = await this.open(stream);
      if (stream.stopped) return;
      failures = ended.activated ? 1 : failures + 1;
      const wait = Math.min(retryMs * 2 ** (failures - 1), MAX_RETRY_MS);
      this.options.onError(stream.id, ended.message, wait);
      stream.controller = new AbortController();
      await abortableSleep(wait, stream.controller.signal);
    }
  }

  /** One `events/stream` request, from opening to its end: why it ended, and whether it was ever confirmed. */
  private async open(stream: Stream): Promise<{ message: string; activated: boolean }> {
    const previous = this.opening.get(stream.server) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const turn = new Promise<void>((resolve) => (release = resolve));
    this.opening.set(
      stream.server,
      previous.then(() => turn),
    );
    await previous;
    let activated = false;
    const confirmed = new Promise<void>((resolve) => {
      stream.activated = () => {
        activated = true;
        resolve();
      };
    });
    delete stream.wireId;
    stream.lastHeard = Date.now();
    this.awaiting.set(stream.server, stream);
    const { signal } = stream.controller;
    const silenceMs = this.options.silenceMs ?? 60_000;
    const watchdog = setInterval(
      () => {
        if (Date.now() - stream.lastHeard > (activated ? silenceMs : ACTIVATION_MS)) stream.controller.abort();
      },
      Math.min(1_000, silenceMs / 4),
    );
    const request = this.options.servers.request(
      stream.server,
      { method: EVENTS_METHODS.stream, what: '', action: 'receive events', signal },
      (client) =>
        client.request(
          { method: EVENTS_METHODS.stream, params: { ...this.options.request(stream.id) } } as Parameters<
            Client['request']
          >[0],
          AnyObject,
          { signal, timeout: NO_TIMEOUT },
        ),
    );
    const outcome = request.then(
      () => 'the server closed the event stream',
      (error: unknown) =>
        signal.aborted && !stream.stopped
          ? 'the event stream went silent'
          : `the event stream failed: ${errorMessage(error)}`,
    );
    // The next stream of this server may open once this one is confirmed, or has ended.
    await Promise.race([confirmed, outcome]);
    if (this.awaiting.get(stream.server) === stream) this.awaiting.delete(stream.server);
    release();
    const message = await outcome;
    clearInterval(watchdog);
    // What the ended stream still sends (a server slow to see the cancel) is dropped: the next one replays from the
    // saved cursor, so nothing is lost and nothing comes twice.
    delete stream.wireId;
    return { message, activated };
  }
}

function cursorOf(params: Record<string, unknown>): string | null | undefined {
  const { cursor } = params;
  return typeof cursor === 'string' || cursor === null ? cursor : undefined;
}

function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return 'no reason given';
}
