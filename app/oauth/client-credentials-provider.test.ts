import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ClientCredentialsOAuthProvider, keyAlgorithm } from './client-credentials-provider';

const pem = (type: 'rsa' | 'ec' | 'ed25519', curve?: string): string => {
  const { privateKey } =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : type === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: curve ?? 'P-256' })
        : generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
};

describe('ClientCredentialsOAuthProvider', () => {
  it('asks for client_credentials with the configured scope and authenticates with the secret', () => {
    const provider = new ClientCredentialsOAuthProvider({
      clientId: 'ci',
      clientSecret: 'cs',
      scope: 'mcp:tools',
      issuer: 'https://auth.example.com',
    });
    expect(provider.prepareTokenRequest().toString()).toBe('grant_type=client_credentials&scope=mcp%3Atools');
    expect(provider.prepareTokenRequest('mcp:admin').get('scope')).toBe('mcp:admin');
    expect(provider.clientInformation()).toEqual({
      client_id: 'ci',
      client_secret: 'cs',
      issuer: 'https://auth.example.com',
    });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(provider.addClientAuthentication).toBeUndefined();
    expect(() => provider.redirectToAuthorization()).toThrow(/client credentials/);
  });

  it('with a private key: a signed assertion instead of a secret', () => {
    const provider = new ClientCredentialsOAuthProvider({ clientId: 'ci', privateKey: pem('ec') });
    expect(provider.clientInformation()).toEqual({ client_id: 'ci' });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('private_key_jwt');
    expect(provider.addClientAuthentication).toBeTypeOf('function');
  });

  it('forgets its token when told the token is bad', () => {
    const provider = new ClientCredentialsOAuthProvider({ clientId: 'ci', clientSecret: 'cs' });
    provider.saveTokens({ access_token: 'a', token_type: 'Bearer' });
    provider.invalidateCredentials('tokens');
    expect(provider.tokens()).toBeUndefined();
  });
});

describe('keyAlgorithm', () => {
  it('fits the algorithm to the key', () => {
    expect(keyAlgorithm(pem('rsa'))).toBe('RS256');
    expect(keyAlgorithm(pem('ec'))).toBe('ES256');
    expect(keyAlgorithm(pem('ec', 'P-384'))).toBe('ES384');
    expect(keyAlgorithm(pem('ed25519'))).toBe('EdDSA');
  });

  it('says the key cannot be read, without repeating it', () => {
    const text = '-----BEGIN PRIVATE KEY-----\nnot-a-key-abcdef\n-----END PRIVATE KEY-----';
    let message = '';
    try {
      keyAlgorithm(text);
    } catch (error) {
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toMatch(/^the OAuth private key is not a PEM private key Berth can read/);
    expect(message).not.toContain('not-a-key-abcdef');
  });
});
