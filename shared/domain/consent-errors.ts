import { codedFamily } from './host-wording';

/**
 * The failures of consent and of the requests waiting for the person, as codes with their facts; the
 * renderer words them from renderer/i18n/locales/<locale>/consent-errors.json. `rule` is a rule as Berth
 * describes it (its pattern quoted).
 */
export type ConsentErrorMessages = {
  'consent-errors.bad-arguments': { tool: string };
  'consent-errors.rule-server-not-running': { server: string };
  'consent-errors.rule-matches-nothing': { server: string; rule: string };
  'consent-errors.policy-not-found': { id: string };
  'consent-errors.pending-not-found': { id: string };
};
export type ConsentErrorCode = keyof ConsentErrorMessages;

/** A consent or pending-request failure in English with its code (the English is what Berth always said). */
export const consentError = codedFamily<ConsentErrorMessages>({
  'consent-errors.bad-arguments': ({ tool }) => `the arguments for tool '${tool}' are not a JSON object`,
  'consent-errors.rule-server-not-running': ({ server }) =>
    `'${server}' is not running: start it first, so that the rule covers the tools it lists`,
  'consent-errors.rule-matches-nothing': ({ server, rule }) =>
    `no tool of '${server}' falls under “${rule}”: nothing to allow`,
  'consent-errors.policy-not-found': ({ id }) => `no consent policy '${id}': it was revoked already or never existed`,
  'consent-errors.pending-not-found': ({ id }) => `no pending request '${id}': it was answered or withdrawn already`,
});
