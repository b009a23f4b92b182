import type { CompletionRequest, CompletionResult } from '../../shared/contract/prompts';
import { workspaceError } from '../../shared/domain/workspace-errors';
import { HostError } from '../../shared/result';
import type { PromptServers } from './prompt-catalog';

/** One field being completed: a newer keystroke there replaces the older request. */
function fieldKey({ server, ref, argument }: CompletionRequest): string {
  return JSON.stringify([server, ref.type, ref.type === 'ref/prompt' ? ref.name : ref.uri, argument.name]);
}

/**
 * completion/complete with "latest wins" per (server, ref, argument): a new
 * request aborts the one still running for the same field, so the SDK sends
 * notifications/cancelled and the server can stop working on a stale prefix.
 * The overtaken request answers `superseded` instead of failing.
 */
export class CompletionBroker {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly servers: Pick<PromptServers, 'request'>) {}

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const { server, ref, argument, context } = request;
    const what =
      ref.type === 'ref/prompt'
        ? `for argument '${argument.name}' of prompt '${ref.name}'`
        : `for '${argument.name}' of resource template '${ref.uri}'`;
    const key = fieldKey(request);
    this.running.get(key)?.abort();
    const abort = new AbortController();
    this.running.set(key, abort);
    try {
      const result = await this.servers.request(
        server,
        { method: 'completion/complete', what, action: `complete ${what}`, signal: abort.signal },
        (client, timeoutMs) => {
          if (client.getServerCapabilities()?.completions === undefined) {
            throw HostError.coded('SERVER_ERROR', workspaceError('workspace-errors.no-completions', { server }));
          }
          return client.complete(
            { ref, argument, ...(context !== undefined ? { context } : {}) },
            { timeout: timeoutMs, signal: abort.signal },
          );
        },
      );
      const { values, total, hasMore } = result.completion;
      return { values, ...(total !== undefined ? { total } : {}), ...(hasMore !== undefined ? { hasMore } : {}) };
    } catch (error) {
      if (abort.signal.aborted) return { values: [], superseded: true };
      throw error;
    } finally {
      if (this.running.get(key) === abort) this.running.delete(key);
    }
  }

  /** Abort everything still running (host shutdown). */
  close(): void {
    for (const abort of this.running.values()) abort.abort();
    this.running.clear();
  }
}
