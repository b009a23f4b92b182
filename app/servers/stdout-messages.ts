import {
  INVALID_REQUEST,
  ProtocolError,
  isJSONRPCRequest,
  isJSONRPCResponse,
  parseJSONRPCMessage,
} from '@modelcontextprotocol/client';
import type { JSONRPCErrorResponse, JSONRPCMessage, RequestId } from '@modelcontextprotocol/client';

const GARBAGE_PREVIEW_CHARS = 200;

/** Set in `data` of the error answers Berth makes up for requests a batch answered, so the wording can name the batch. */
const BATCH_MARK = 'berth.json-rpc-batch';

/** What to do with one JSON-RPC batch that came in over stdio. */
export interface BatchVerdict {
  /** "a JSON-RPC batch (a JSON array of 2 messages)", for messages. */
  description: string;
  /** Error answers to hand our own side, one per request of ours the batch answered: those requests fail now instead of timing out. */
  failedAnswers: JSONRPCErrorResponse[];
  /** Error answers to send the server, one per request it put in the batch, so it is not left waiting. */
  refusals: JSONRPCErrorResponse[];
}

function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/**
 * Read a JSON array from stdout. MCP has had no JSON-RPC batches since
 * protocol 2025-06-18 (and the SDK reads none), so a server that sends one is
 * not speaking the protocol Berth negotiated. Instead of dropping the line
 * (which leaves the request it answered waiting for its timeout), every
 * request it answered fails at once with words that name the batch.
 * Undefined when the array holds no JSON-RPC message at all: that is plain
 * garbage, not a batch.
 */
export function readBatch(items: unknown[]): BatchVerdict | undefined {
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    try {
      messages.push(parseJSONRPCMessage(item));
    } catch {
      // Not a message: only counted below.
    }
  }
  if (messages.length === 0) return undefined;
  const answered = messages.flatMap((m) => (isJSONRPCResponse(m) && m.id !== undefined ? [m.id] : []));
  const asked = messages.filter(isJSONRPCRequest).map((m) => m.id);
  const description = `a JSON-RPC batch (a JSON array of ${plural(items.length, 'item')}${answered.length > 0 ? `, answering request ${answered.join(', ')}` : ''})`;
  const explanation = `the server sent ${description}; MCP has no batches since protocol 2025-06-18: a server sends one JSON-RPC message per line`;
  const errorFor = (id: RequestId, data?: Record<string, unknown>): JSONRPCErrorResponse => ({
    jsonrpc: '2.0',
    id,
    error: { code: INVALID_REQUEST, message: explanation, ...(data === undefined ? {} : { data }) },
  });
  return {
    description,
    failedAnswers: answered.map((id) => errorFor(id, { [BATCH_MARK]: true })),
    refusals: asked.map((id) => errorFor(id)),
  };
}

/** The words of a request failure that Berth made up for a batch answer; undefined for any other error. */
export function batchFailure(error: unknown): string | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  const data = error.data as Record<string, unknown> | undefined;
  return data?.[BATCH_MARK] === true ? error.message : undefined;
}

function preview(text: string): string {
  const oneLine = text.replace(/\p{Cc}+/gu, ' ').trim();
  return oneLine.length > GARBAGE_PREVIEW_CHARS ? `${oneLine.slice(0, GARBAGE_PREVIEW_CHARS)}…` : oneLine;
}

/** One stdout line, read: a message, a batch, or garbage described in words (blank lines are `empty`). */
export type StdoutLine =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'batch'; batch: BatchVerdict }
  | { kind: 'garbage'; description: string }
  | { kind: 'empty' };

export function readStdoutLine(raw: string): StdoutLine {
  if (raw.trim() === '') return { kind: 'empty' };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { kind: 'garbage', description: `stdout line is not JSON-RPC (not JSON): ${preview(raw)}` };
  }
  const batch = Array.isArray(json) ? readBatch(json) : undefined;
  if (batch !== undefined) return { kind: 'batch', batch };
  try {
    return { kind: 'message', message: parseJSONRPCMessage(json) };
  } catch {
    return {
      kind: 'garbage',
      description: `stdout line is not JSON-RPC (JSON, but not a JSON-RPC 2.0 message): ${preview(raw)}`,
    };
  }
}
