import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostError } from '../../shared/result';
import { formatSeconds } from '../servers/server-connection';

export interface RequestFailure {
  server: string;
  /** The MCP method, e.g. `prompts/get`. */
  method: string;
  /** What it was about, e.g. `prompt 'greet'`; may be empty. */
  what: string;
  timeoutMs: number;
  error: unknown;
}

/** A failed prompt or completion request, in words: which server, what was asked, and why it ended. */
export function describeRequestError({ server, method, what, timeoutMs, error }: RequestFailure): HostError {
  if (error instanceof HostError) return error;
  const subject = what === '' ? method : `${method} ${what}`;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new HostError('TIMEOUT', `${subject} on server '${server}' did not answer within ${formatSeconds(timeoutMs)}`);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new HostError('SERVER_ERROR', `server '${server}' closed the connection while ${method} was in progress`);
  }
  if (error instanceof ProtocolError) {
    return new HostError('SERVER_ERROR', `server '${server}' answered ${subject} with error ${error.code}: ${error.message}`);
  }
  return new HostError('SERVER_ERROR', `${subject} on server '${server}' failed: ${error instanceof Error ? error.message : String(error)}`);
}
