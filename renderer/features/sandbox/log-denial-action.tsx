import { DENIAL_PREFIXES } from '../../../shared/domain/sandbox';
import { AllowButton } from './denial-notice';
import { useSandboxDenials } from './use-sandbox';

/** Whether a log row is the host's line of a denial (shared/domain/sandbox.ts: `denialMessage`). */
export function isDenialLine(row: { source: string; text: string }): boolean {
  return row.source === 'host' && Object.values(DENIAL_PREFIXES).some((prefix) => row.text.startsWith(prefix));
}

/**
 * The fix beside a denial's line in the log: the denial it reports, found
 * among the server's recent ones by its words, with the same one action as
 * the server's card. Nothing when it was already allowed or never can be.
 */
export function LogDenialAction({ server, text }: { server: string; text: string }) {
  const denials = useSandboxDenials(server);
  const denial = denials.findLast((d) => d.message === text && d.fix !== undefined);
  return denial === undefined ? null : <AllowButton denial={denial} size="xs" />;
}
