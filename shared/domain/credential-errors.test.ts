import { describe, expect, it } from 'vitest';
import { credentialError } from './credential-errors';

describe("sign-ins' and secrets' failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [
      credentialError('credential-errors.no-person-needed', { server: 'r', grant: 'jwt_bearer' }),
      "server 'r' gets its OAuth tokens without a person (workload identity): there is nothing to sign in to",
    ],
    [
      credentialError('credential-errors.no-person-needed', { server: 'r', grant: 'client_credentials' }),
      "server 'r' gets its OAuth tokens without a person (client credentials): there is nothing to sign in to",
    ],
    [
      credentialError('credential-errors.mask-without-secret', { section: 'env', key: 'API_KEY', mask: '***' }),
      'Enter the value of API_KEY: "***" only stands for a secret Berth already stores',
    ],
    [
      credentialError('credential-errors.stored-secret-missing', { section: 'headers', key: 'Authorization' }),
      "Enter the value of the Authorization header again: its stored secret is missing from Berth's secret store",
    ],
    [
      credentialError('credential-errors.stored-secret-missing', { section: 'oauth', key: 'clientSecret' }),
      "Enter the value of the OAuth client secret again: its stored secret is missing from Berth's secret store",
    ],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
  });

  it('sends where the secret sits as facts, not as English', () => {
    expect(credentialError('credential-errors.stored-secret-missing', { section: 'oauth', key: 'privateKey' })).toEqual(
      {
        text: "Enter the value of the OAuth private key again: its stored secret is missing from Berth's secret store",
        hostMessage: {
          code: 'credential-errors.stored-secret-missing',
          params: { section: 'oauth', key: 'privateKey' },
        },
      },
    );
  });
});
