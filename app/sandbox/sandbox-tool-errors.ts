import type { CallToolResult } from '@modelcontextprotocol/client';
import { errorMessage } from '../../shared/error-message';
import type { OpenConnection, SupervisedConnection } from '../servers/connection-options';

/** The words of a failed tool call: its text blocks. */
function errorText(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/**
 * Opens connections whose failed tool calls (an `isError` result, or a
 * JSON-RPC error) are shown to `onError` — many servers (server-filesystem)
 * answer "EROFS: read-only file system, open '/x'" there and print nothing
 * on stderr. What the caller gets back is unchanged.
 */
export function watchToolErrors(open: OpenConnection, onError: (server: string, text: string) => void): OpenConnection {
  return async (options) => {
    const connection = await open(options);
    const server = options.name;
    const watched: SupervisedConnection = {
      get client() {
        return connection.client;
      },
      get lostReason() {
        return connection.lostReason;
      },
      get lostMessage() {
        return connection.lostMessage;
      },
      get tools() {
        return connection.tools;
      },
      facts: () => connection.facts(),
      on: (event, listener) => connection.on(event, listener),
      callTool: async (tool, args, callOptions) => {
        let result: CallToolResult;
        try {
          result = await connection.callTool(tool, args, callOptions);
        } catch (error) {
          onError(server, errorMessage(error));
          throw error;
        }
        if (result.isError === true) onError(server, errorText(result));
        return result;
      },
      request: (method, what, timeoutMs, signal, send) => connection.request(method, what, timeoutMs, signal, send),
      setLogLevel: (level) => connection.setLogLevel(level),
      forgetLogLevel: () => connection.forgetLogLevel(),
      close: () => connection.close(),
    };
    return watched;
  };
}
