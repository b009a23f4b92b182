import type { MessageId } from '../../i18n/message-ids';
import type { Translate } from '../../i18n/use-t';
import type { CspRefusal } from '../../sandbox-proxy/csp-violations';

// What an app's CSP refused, in the person's language: the sandbox proxy passes only the facts (it runs on
// its own origin without the catalog, see sandbox-proxy/csp-violations.ts).

/** What the app was trying to do, by the directive that refused it. */
const WHAT: Record<string, MessageId> = {
  'script-src': 'apps.csp.what.scriptSrc',
  'script-src-elem': 'apps.csp.what.scriptSrcElem',
  'script-src-attr': 'apps.csp.what.scriptSrcAttr',
  'style-src': 'apps.csp.what.styleSrc',
  'style-src-elem': 'apps.csp.what.styleSrcElem',
  'style-src-attr': 'apps.csp.what.styleSrcAttr',
  'img-src': 'apps.csp.what.imgSrc',
  'font-src': 'apps.csp.what.fontSrc',
  'media-src': 'apps.csp.what.mediaSrc',
  'connect-src': 'apps.csp.what.connectSrc',
  'worker-src': 'apps.csp.what.workerSrc',
  'frame-src': 'apps.csp.what.frameSrc',
  'object-src': 'apps.csp.what.objectSrc',
  'base-uri': 'apps.csp.what.baseUri',
  'form-action': 'apps.csp.what.formAction',
};

/** The sentence for one refusal: the directive, what it stopped, and where that came from or went. */
export function cspRefusalText(t: Translate, { directive, blocked }: CspRefusal): string {
  const what = t(Object.prototype.hasOwnProperty.call(WHAT, directive) ? WHAT[directive]! : 'apps.csp.what.other');
  const facts = { directive, what, blocked };
  if (blocked === 'eval' || blocked === 'wasm-eval') return t('apps.csp.refusedEval', facts);
  if (blocked === 'inline') return t('apps.csp.refusedInline', facts);
  if (blocked === '') return t('apps.csp.refused', facts);
  return t(directive === 'connect-src' ? 'apps.csp.refusedTo' : 'apps.csp.refusedFrom', facts);
}

/** Two reports of the same refusal are one. */
export const sameRefusal = (a: CspRefusal, b: CspRefusal): boolean =>
  a.directive === b.directive && a.blocked === b.blocked;
