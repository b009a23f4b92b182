import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { LogLevelSchema } from '../../shared/domain/server';
import type { LogLevel } from '../../shared/domain/server';
import type { LogSink, NewLogEntry } from '../logs/log-sink';
import { configSecrets, formsOfAll } from '../secrets/secret-forms';
import { redactForms } from '../secrets/secret-redactor';

/** Trace bodies beyond this many characters are cut, with a marker saying how big the message was. */
export const TRACE_BODY_LIMIT = 64 * 1024;
/** Request ids remembered to name the method of a response; bounded against servers that never answer. */
const MAX_TRACKED_REQUESTS = 10_000;

/** "118 B", "1.2 KB", "3.4 MB" for trace summaries. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

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

/**
 * `text` as one flat string. A text built from pieces is a tree of V8 "cons"
 * strings, and the trace keeps its entries long (20,000 per server): each
 * piece is one more object for every garbage collection to copy and mark.
 * Reading a character makes V8 flatten the tree in place (a trace entry's
 * cost went from ~3.7 to ~3 µs with this, mostly garbage collection).
 */
function flattened(text: string): string {
  void text.charCodeAt(0);
  return text;
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
  /** `${direction}:${id}` of requests still waiting for their response → method. */
  private readonly pending = new Map<string, string>();
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
    if (this.recentStderr.length > 3) this.recentStderr.shift();
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
    const arrow = direction === 'out' ? '→' : '←';
    let method: string | undefined;
    let summary: string;
    if ('method' in message) {
      method = message.method;
      if (id !== undefined) this.track(`${direction}:${id}`, method);
      summary = id === undefined ? `${arrow} ${method}` : `${arrow} ${method} #${id}`;
    } else {
      // A response answers a request that went the other way.
      const key = `${direction === 'in' ? 'out' : 'in'}:${id}`;
      method = this.pending.get(key);
      this.pending.delete(key);
      const name = method ?? 'response';
      summary =
        'error' in message
          ? `${arrow} ${name} #${id} error ${message.error.code}: ${message.error.message}`
          : `${arrow} ${name} #${id} result`;
    }
    const body = raw.length > TRACE_BODY_LIMIT ? `${raw.slice(0, TRACE_BODY_LIMIT)} … [truncated, ${formatSize(bytes)} in total]` : raw;
    // Field by field, no spread of optional parts: one object per message, of one shape (two messages per call).
    const text = flattened(this.redact(`${summary} (${formatSize(bytes)})`));
    const entry: NewLogEntry = { server: this.server, time: Date.now(), source: 'trace', text, direction, size: bytes, body: this.redact(body) };
    if (method !== undefined) entry.method = method;
    if (id !== undefined) entry.id = id;
    this.sink.append(entry);
  }

  private track(key: string, method: string): void {
    if (this.pending.size >= MAX_TRACKED_REQUESTS) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    this.pending.set(key, method);
  }
}
