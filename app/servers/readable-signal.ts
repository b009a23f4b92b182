import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * The SDK aborts a handler's signal with "Connection closed" when the server
 * goes away, or with the server's own words when it cancels: turn both into
 * a note a person can read on the withdrawn request.
 */
export function readableSignal(server: string, signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const onAbort = (): void => {
    const reason: unknown = signal.reason;
    if (reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed)
      controller.abort(`server '${server}' disconnected`);
    else if (typeof reason === 'string' && reason.trim() !== '')
      controller.abort(`server '${server}' cancelled the request: ${reason}`);
    else controller.abort(`server '${server}' cancelled the request`);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return controller.signal;
}
