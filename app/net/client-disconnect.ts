// A client of one of Berth's loopback servers (a window, a reloading tab, an
// app's frame) going away mid-request is ordinary: it is worth one line in
// the log, never a stack trace that reads like a crash of Berth's.

/** What a server reports when a client went away; whoever prints it shows its message alone. */
export class ClientDisconnect extends Error {
  override readonly name = 'ClientDisconnect';
}

/** Error codes of a connection the other side dropped (closed tab, reset, half-sent request). */
const GONE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'HPE_CLOSED_CONNECTION',
]);

/** Whether `error` only says the client went away. */
export function isClientGone(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && GONE_CODES.has(code);
}

/** One line for `server`'s log: a client dropped its connection (with the code the system gave, when any). */
export function clientDisconnect(server: string, error?: unknown): ClientDisconnect {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? ` (${error.code})`
      : '';
  return new ClientDisconnect(`${server}: a client disconnected in the middle of a request${code}`);
}
