import type { PendingRequestOf } from '../../shared/domain/pending';
import type { PendingRequests } from '../pending/pending-requests';

/** Resolves with the next tool-call prompt that opens (test helper for the consent broker's suites). */
export function nextPrompt(pending: PendingRequests): Promise<PendingRequestOf<'tool-call'>> {
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === 'tool-call') {
        stop();
        resolve(change.request);
      }
    });
  });
}
