import type { RootsView } from '../../../shared/contract/roots';
import type { RootExposure } from '../../../shared/domain/roots';
import type { Result } from '../../../shared/result';
import type { MessageId } from '../../i18n/message-ids';
import { translate } from '../../i18n/use-t';

/** What the person answered about one root for one server. */
export type ConsentState = 'allowed' | 'denied' | 'not-asked';

export const CONSENT_LABELS: Record<
  ConsentState,
  { label: MessageId; tone: 'success' | 'danger' | 'neutral'; hint: MessageId }
> = {
  allowed: { label: 'roots.consent.allowed', tone: 'success', hint: 'roots.consent.allowedHint' },
  denied: { label: 'roots.consent.denied', tone: 'danger', hint: 'roots.consent.deniedHint' },
  'not-asked': { label: 'roots.consent.notAsked', tone: 'neutral', hint: 'roots.consent.notAskedHint' },
};

/** A server absent from the exposure map sees every root. */
export function exposureOf(view: RootsView, server: string): RootExposure {
  return view.exposure[server] ?? 'all';
}

export function seesRoot(exposure: RootExposure, rootId: string): boolean {
  return exposure === 'all' || exposure.includes(rootId);
}

export function consentState(view: RootsView, server: string, rootId: string): ConsentState {
  const answers = view.consent[server];
  if (answers?.allowed.includes(rootId)) return 'allowed';
  if (answers?.denied.includes(rootId)) return 'denied';
  return 'not-asked';
}

/** Whether the server has any answer on file (so "Ask again" has something to forget). */
export function hasAnswers(view: RootsView, server: string): boolean {
  const answers = view.consent[server];
  return Boolean(answers && answers.allowed.length + answers.denied.length > 0);
}

/**
 * The exposure after checking or unchecking one root. Unchecking while the
 * server sees "all" turns it into the explicit list of every other root, so
 * roots added later are not shown to it without the person choosing so.
 */
export function toggleExposure(
  exposure: RootExposure,
  allIds: readonly string[],
  rootId: string,
  on: boolean,
): RootExposure {
  const current = exposure === 'all' ? [...allIds] : exposure.filter((id) => allIds.includes(id));
  if (on) return current.includes(rootId) ? current : [...current, rootId];
  return current.filter((id) => id !== rootId);
}

/** "All 3 roots", "2 of 3 roots", "no roots": one line for a server's access. */
export function exposureSummary(exposure: RootExposure, total: number): string {
  if (exposure === 'all') return translate('roots.exposure.all', { total });
  if (exposure.length === 0) return translate('roots.exposure.none');
  return translate('roots.exposure.some', { count: exposure.length, total });
}

/** The host's problem text as a sentence: capital first letter, closing full stop. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  // A sentence worded in Chinese or Japanese ends with its own full stop.
  return /[.!?。！？]$/.test(capital) ? capital : `${capital}.`;
}

/** The host refused a folder as broad as `/` or the home folder until the person confirms it; the failure's message is the warning to show. */
export function needsBroadConfirmation(result: Result<unknown>): boolean {
  return !result.ok && result.path === 'confirmBroad';
}
