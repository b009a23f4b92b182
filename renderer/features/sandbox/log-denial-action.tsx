import { AllowButton } from './denial-notice';
import { useSandboxDenials } from './use-sandbox';

/** How the host's log line of a denial starts (app/sandbox: `denialMessage`). */
const DENIAL_PREFIX = 'blocked by the sandbox: ';

export function isDenialLine(row: { source: string; text: string }): boolean {
  return row.source === 'host' && row.text.startsWith(DENIAL_PREFIX);
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
