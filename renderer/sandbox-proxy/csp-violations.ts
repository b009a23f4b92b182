// What an app's CSP refused, told to the person on the app's card instead of
// leaving a half-working app. The app's document is on an opaque origin the
// proxy cannot look into, so a small script written right after the policy
// (before any of the app's own code) listens for `securitypolicyviolation`
// and posts each new refusal to the proxy, which passes its facts (the
// directive, what was blocked) on to the host page: the app card words them
// in the person's language (features/apps/csp-refusal.ts), since this page
// has no catalog.
// The app can fake such a message: it can only make its own card say its
// own policy refused something, which is harmless.

/** What the reporter posts to the proxy (never relayed as-is to Berth). */
export const SANDBOX_CSP_VIOLATION = 'ui/notifications/sandbox-csp-violation';
/** The logger of the proxy's refusal facts, as `notifications/message` to the host; apps may not use it. */
export const CSP_VIOLATION_LOGGER = 'berth-app-csp';
/** Distinct refusals reported per app document: one is enough to explain a broken app. */
const MAX_REPORTS = 5;

/** The reporter as inline markup for the app's srcdoc (inline script is allowed by the app's policy). */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a script for the app's document, not words
export const CSP_VIOLATION_REPORTER = `<script>(()=>{const seen=new Set();document.addEventListener('securitypolicyviolation',(e)=>{const key=e.effectiveDirective+' '+e.blockedURI;if(seen.has(key)||seen.size>=${MAX_REPORTS})return;seen.add(key);parent.postMessage({jsonrpc:'2.0',method:'${SANDBOX_CSP_VIOLATION}',params:{directive:String(e.effectiveDirective),blocked:String(e.blockedURI)}},'*');});})();</script>`;

/** One refusal's facts: the CSP directive that refused, and what it blocked (an address, `inline`, `eval`, or empty). */
export interface CspRefusal {
  directive: string;
  blocked: string;
}

/**
 * The refusal's facts, or undefined for params that are not a report.
 * The directive and address are the app's to claim, so both are cut short.
 */
export function readCspViolation(params: unknown): CspRefusal | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { directive, blocked } = params as Record<string, unknown>;
  if (typeof directive !== 'string' || typeof blocked !== 'string') return undefined;
  return { directive: directive.slice(0, 40), blocked: blocked.slice(0, 200) };
}
