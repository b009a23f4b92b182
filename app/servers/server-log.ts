import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { LogLevelSchema } from '../../shared/domain/server';
import type { LogLevel } from '../../shared/domain/server';
import type { LogSink, NewLogEntry } from '../logs/log-sink';
import { formatSize, traceSummary, type NewTraceRecord, type TraceOutcome } from '../logs/trace-record';
import { configSecrets, formsOfAll } from '../secrets/secret-forms';
import { redactForms } from '../secrets/secret-redactor';
import { pickErrorLine } from '../../shared/domain/server-start-error';

export { formatSize };

/** Trace bodies beyond this many characters are cut, with a marker saying how big the message was. */
export const TRACE_BODY_LIMIT = 64 * 1024;
/** Request ids remembered to name the method of a response; bounded against servers that never answer. */
const MAX_TRACKED_REQUESTS = 10_000;
/** Enough for a Node error with its cause and stack, whose message is above the frames and fields. */
const RECENT_STDERR_LINES = 20;

/**
 * Every form (secret-forms.ts) of the server's secret env values, secret
 * headers and OAuth client credentials, longest first.
 */
export function secretValues(config: Parameters<typeof configSecrets>[0]): string[] {
  return formsOfAll(configSecrets(config));
}

/** Replace every occurrence of each secret form with the mask. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactForms(text, secrets);
}

function messageId(message: JSONRPCMessage): string | number | undefined {
  return 'id' in message && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
}

/**
 * Everything one server connection writes to the log: lifecycle lines,
 * stderr, `notifications/message` and the JSON-RPC trace, each stamped with
 * the server's name and with its secret env values redacted.
 */
export class ServerLog {
  /** Ids (as text, so an answer with id "3" names request 3, as it always did) of requests still waiting for their response → method, by the way the request went. */
  private readonly pendingOut = new Map<string, string>();
  private readonly pendingIn = new Map<string, string>();
  private readonly redactText = (text: string): string => this.redact(text);
  private readonly recentStderr: string[] = [];

  constructor(
    private readonly sink: LogSink,
    private readonly server: string,
    private readonly secrets: readonly string[],
  ) {}

  redact(text: string): string {
    return this.secrets.length === 0 ? text : redact(text, this.secrets);
  }

  host(level: LogLevel, text: string): void {
    this.sink.append({ server: this.server, time: Date.now(), source: 'host', level, text: this.redact(text) });
  }

  stderr(line: string): void {
    const text = this.redact(line);
    this.recentStderr.push(text);
    if (this.recentStderr.length > RECENT_STDERR_LINES) this.recentStderr.shift();
    this.sink.append({ server: this.server, time: Date.now(), source: 'stderr', text });
  }

  /** The last non-empty stderr line, to explain an early exit. */
  lastStderrLine(): string | undefined {
    for (let i = this.recentStderr.length - 1; i >= 0; i--) {
      const line = this.recentStderr[i]?.trim();
      if (line) return line.length > 300 ? `${line.slice(0, 300)}…` : line;
    }
    return undefined;
  }

  /** The recent stderr line that best says what went wrong (pickErrorLine), to explain a start that failed or never finished. */
  lastErrorLine(): string | undefined {
    const line = pickErrorLine(this.recentStderr);
    return line !== undefined && line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }

  /** A `notifications/message` from the server. */
  notification(params: { level?: unknown; logger?: unknown; data?: unknown }): void {
    const level = LogLevelSchema.safeParse(params.level);
    let text: string;
    if (typeof params.data === 'string') text = params.data;
    else {
      try {
        text = JSON.stringify(params.data) ?? String(params.data);
      } catch {
        text = String(params.data);
      }
    }
    this.sink.append({
      server: this.server,
      time: Date.now(),
      source: 'notification',
      ...(level.success ? { level: level.data } : {}),
      ...(typeof params.logger === 'string' ? { logger: this.redact(params.logger) } : {}),
      text: this.redact(text),
    });
  }

  /** One JSON-RPC message crossing the pipe; `raw` is its JSON text. */
  trace(direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, raw: string): void {
    const id = messageId(message);
    let method: string | undefined;
    let outcome: TraceOutcome = 'call';
    let errorDetail: string | undefined;
    if ('method' in message) {
      method = message.method;
      if (id !== undefined) this.track(direction, id, method);
    } else {
      // A response answers a request that went the other way.
      const asked = direction === 'in' ? this.pendingOut : this.pendingIn;
      if (id !== undefined) {
        const key = String(id);
        method = asked.get(key);
        asked.delete(key);
      }
      if ('error' in message) {
        outcome = 'error';
        errorDetail = `${message.error.code}: ${message.error.message}`;
      } else outcome = 'result';
    }
    const cut =
      raw.length > TRACE_BODY_LIMIT
        ? `${raw.slice(0, TRACE_BODY_LIMIT)} … [truncated, ${formatSize(bytes)} in total]`
        : raw;
    const body = this.redact(cut);
    const time = Date.now();
    if (this.sink.appendTrace !== undefined) {
      // Kept compactly; the summary line is made when someone reads the entry.
      const record: NewTraceRecord = { server: this.server, time, direction, size: bytes, body, outcome };
      if (method !== undefined) record.method = method;
      if (id !== undefined) record.id = id;
      if (errorDetail !== undefined) record.errorDetail = errorDetail;
      if (this.secrets.length > 0) record.redactText = this.redactText;
      this.sink.appendTrace(record);
      return;
    }
    const text = this.redact(traceSummary(direction, outcome, method, id, errorDetail, bytes));
    const entry: NewLogEntry = { server: this.server, time, source: 'trace', text, direction, size: bytes, body };
    if (method !== undefined) entry.method = method;
    if (id !== undefined) entry.id = id;
    this.sink.append(entry);
  }

  private track(direction: 'in' | 'out', id: string | number, method: string): void {
    const pending = direction === 'out' ? this.pendingOut : this.pendingIn;
    if (pending.size >= MAX_TRACKED_REQUESTS) {
      const oldest = pending.keys().next().value;
      if (oldest !== undefined) pending.delete(oldest);
    }
    pending.set(String(id), method);
  }
}
