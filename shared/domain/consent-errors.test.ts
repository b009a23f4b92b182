import { describe, expect, it } from 'vitest';
import { consentError } from './consent-errors';

describe("consent's and pending requests' failures: a code with its facts, and the English Berth always said", () => {
  it('names the request or policy that is gone', () => {
    expect(consentError('consent-errors.pending-not-found', { id: 'r1' })).toEqual({
      text: "no pending request 'r1': it was answered or withdrawn already",
      hostMessage: { code: 'consent-errors.pending-not-found', params: { id: 'r1' } },
    });
    expect(consentError('consent-errors.policy-not-found', { id: 'p1' }).text).toBe(
      "no consent policy 'p1': it was revoked already or never existed",
    );
  });

  it('quotes the rule as Berth describes it', () => {
    expect(consentError('consent-errors.rule-matches-nothing', { server: 'fs', rule: 'write_*' }).text).toBe(
      "no tool of 'fs' falls under “write_*”: nothing to allow",
    );
  });
});
