import { HostError } from '../../shared/result';
import { secondsOf, serverError } from '../../shared/domain/server-errors';
import { PausableTimeout } from '../servers/pausable-timeout';
import type { PersonWaits } from '../servers/pausable-timeout';

/** A running limit on the request that makes a call through the task session; `end()` once it has its answer. */
export interface CreationTimeLimit {
  /** Why the limit ended the call (a TIMEOUT in Berth's words), once it has. */
  readonly exceeded: HostError | undefined;
  end(): void;
}

/**
 * The plain path's maximum total time (CallToolOptions.maxTotalMs), for the
 * request that makes a call through the task session: progress keeps each
 * request alive (the raw dispatch re-arms its timeout), so this bounds the
 * whole, and time the person spends on the call's questions does not count.
 * A task the server makes has no such limit: only its requests time out, and
 * its TTL bounds it. `subject` is the request with what it is about (`tools/call tool 'x'`), as the plain
 * path's timeouts name it (server-errors.max-total-time).
 */
export function creationTimeLimit(
  server: string,
  subject: string,
  maxTotalMs: number,
  personWaits: PersonWaits | undefined,
  stop: (reason: HostError) => void,
): CreationTimeLimit {
  let exceeded: HostError | undefined;
  const clock = new PausableTimeout({
    // Only the total counts here: each request has its own idle timeout.
    timeoutMs: maxTotalMs,
    maxTotalMs,
    onTimeout: () => {
      exceeded = HostError.coded(
        'TIMEOUT',
        serverError('server-errors.max-total-time', { name: server, subject, seconds: secondsOf(maxTotalMs) }),
      );
      stop(exceeded);
    },
  });
  if (personWaits?.waiting === true) clock.pause();
  const unsubscribe = personWaits?.onChange((waiting) => (waiting ? clock.pause() : clock.resume()));
  return {
    get exceeded() {
      return exceeded;
    },
    end() {
      clock.dispose();
      unsubscribe?.();
    },
  };
}
