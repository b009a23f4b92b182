// What an app's CSP refused, told to the person on the app's card instead of
// leaving a half-working app. The app's document is on an opaque origin the
// proxy cannot look into, so a small script written right after the policy
// (before any of the app's own code) listens for `securitypolicyviolation`
// and posts each new refusal to the proxy, which words it for the host.
// The app can fake such a message: it can only make its own card say its
// own policy refused something, which is harmless.

/** What the reporter posts to the proxy (never relayed as-is to Berth). */
export const SANDBOX_CSP_VIOLATION = 'ui/notifications/sandbox-csp-violation';
/** The logger of the proxy's worded refusal, as `notifications/message` to the host; apps may not use it. */
export const CSP_VIOLATION_LOGGER = 'berth-app-csp';
/** Distinct refusals reported per app document: one is enough to explain a broken app. */
const MAX_REPORTS = 5;

/** The reporter as inline markup for the app's srcdoc (inline script is allowed by the app's policy). */
export const CSP_VIOLATION_REPORTER = `<script>(()=>{const seen=new Set();document.addEventListener('securitypolicyviolation',(e)=>{const key=e.effectiveDirective+' '+e.blockedURI;if(seen.has(key)||seen.size>=${MAX_REPORTS})return;seen.add(key);parent.postMessage({jsonrpc:'2.0',method:'${SANDBOX_CSP_VIOLATION}',params:{directive:String(e.effectiveDirective),blocked:String(e.blockedURI)}},'*');});})();</script>`;

const WHAT: Record<string, string> = {
  'script-src': 'run a script',
  'script-src-elem': 'load a script',
  'script-src-attr': 'run an inline event handler',
  'style-src': 'use a style sheet',
  'style-src-elem': 'load a style sheet',
  'style-src-attr': 'use an inline style',
  'img-src': 'load an image',
  'font-src': 'load a font',
  'media-src': 'load audio or video',
  'connect-src': 'connect',
  'worker-src': 'start a worker',
  'frame-src': 'embed a page',
  'object-src': 'embed a plugin',
  'base-uri': 'change its base address',
  'form-action': 'send a form',
};

/**
 * The refusal in plain words, or undefined for params that are not a report.
 * The directive and address are the app's to claim, so both are cut short.
 */
export function describeCspViolation(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { directive, blocked } = params as Record<string, unknown>;
  if (typeof directive !== 'string' || typeof blocked !== 'string') return undefined;
  const name = directive.slice(0, 40);
  const what = WHAT[name] ?? 'do something';
  const from =
    blocked === 'eval' || blocked === 'wasm-eval'
      ? ' from code built at run time (eval)'
      : blocked === 'inline'
        ? ' written inline'
        : blocked === ''
          ? ''
          : `${name === 'connect-src' ? ' to' : ' from'} ${blocked.slice(0, 200)}`;
  return `The app's security policy (${name}) stopped it trying to ${what}${from}.`;
}
