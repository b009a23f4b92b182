/** What a traced JSON-RPC message is, as far as its one-line summary goes. */
export type TraceOutcome = 'call' | 'result' | 'error';

/**
 * One JSON-RPC message crossing a server's link, as ServerLog hands it to a
 * sink that can keep it compactly (LogSink.appendTrace): the facts its log
 * entry is made of, not the entry. The body is redacted already.
 */
export interface NewTraceRecord {
  server: string;
  time: number;
  direction: 'in' | 'out';
  /** Bytes of the raw message. */
  size: number;
  /** The message's JSON text, cut when huge, secrets masked. */
  body: string;
  /** The request's or notification's method; for a response, the method of the request it answers, when known. */
  method?: string;
  id?: string | number;
  outcome: TraceOutcome;
  /** `${code}: ${message}` of an error response. */
  errorDetail?: string;
  /** The connection's own masking of its secrets, applied to the summary before the sink's own. */
  redactText?: (text: string) => string;
}

/** "118 B", "1.2 KB", "3.4 MB" for trace summaries. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * The line a trace entry shows, before any masking: "→ tools/call #3 (118 B)",
 * "← tools/call #3 result (96 B)", "← response #4 error -32601: Method not found (90 B)".
 * A response's `#id` is printed whatever the id is (an error answering an
 * unparsable request has none: "#undefined", as it always read).
 */
export function traceSummary(
  direction: 'in' | 'out',
  outcome: TraceOutcome,
  method: string | undefined,
  id: string | number | undefined,
  errorDetail: string | undefined,
  size: number,
): string {
  const arrow = direction === 'out' ? '→' : '←';
  let summary: string;
  if (outcome === 'call') summary = id === undefined ? `${arrow} ${method}` : `${arrow} ${method} #${id}`;
  else if (outcome === 'error') summary = `${arrow} ${method ?? 'response'} #${id} error ${errorDetail}`;
  else summary = `${arrow} ${method ?? 'response'} #${id} result`;
  return `${summary} (${formatSize(size)})`;
}
