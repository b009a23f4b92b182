import type { Handlers } from '../../shared/contract';
import type { consentMethods } from '../../shared/contract/consent';
import type { ConsentBroker } from '../consent/consent-broker';

/** The tool-call consent methods of the contract. */
export type ConsentHandlers = Pick<Handlers, keyof typeof consentMethods>;

/** The tool-call decisions that stand, and the audit log of those made. */
export function createConsentHandlers(
  consent: Pick<ConsentBroker, 'load' | 'listPolicies' | 'addRule' | 'revokePolicy' | 'readAudit'>,
): ConsentHandlers {
  return {
    'consent.policies': async () => {
      await consent.load();
      return consent.listPolicies();
    },
    'consent.addRule': async ({ server, rule }) => consent.addRule(server, rule),
    'consent.revoke': async ({ id }) => ({ revoked: (await consent.revokePolicy(id)).id }),
    'consent.audit': async ({ limit }) => consent.readAudit(limit === undefined ? {} : { limit }),
  };
}
