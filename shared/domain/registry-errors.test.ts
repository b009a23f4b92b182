import { describe, expect, it } from 'vitest';
import { registryError } from './registry-errors';

describe("the registry's and install's failures: a code with its facts, and the English Berth always said", () => {
  it('words a registry that cannot be used, keeping its own words as a fact', () => {
    expect(registryError('registry-errors.unreachable', { detail: 'answered 503' })).toEqual({
      text: 'The registry could not be used (answered 503), and nothing from it is cached yet.',
      hostMessage: { code: 'registry-errors.unreachable', params: { detail: 'answered 503' } },
    });
    expect(registryError('registry-errors.review-gone', {})).toEqual({
      text: 'That review is no longer open: review the install again',
      hostMessage: { code: 'registry-errors.review-gone', params: {} },
    });
  });

  it('names the version and the server an update is refused for', () => {
    expect(
      registryError('registry-errors.update-asks-more', { version: '2.0.0', name: 'io.x/w', detail: 'a secret' }).text,
    ).toBe(
      'Version 2.0.0 of io.x/w asks for more than the installed one (a secret): install it again from Discover to review it',
    );
    expect(registryError('registry-errors.not-from-registry', { server: 'time' }).text).toBe(
      '"time" was not installed from a registry',
    );
  });
});
