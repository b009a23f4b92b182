import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/domain/server';
import { configSecrets, secretForms } from './secret-forms';
import { RedactingSecretStore, SecretRedactor, secretsInStoredValue } from './secret-redactor';
import type { SecretStore } from './secret-store';

const SECRET = 'tok-S3CRET-4242-abcdef';
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

function redactorWith(...secrets: string[]): SecretRedactor {
  const redactor = new SecretRedactor();
  redactor.set('test', secrets);
  return redactor;
}

describe('SecretRedactor', () => {
  it('masks a secret and its derived forms: JSON-escaped, URL-encoded, base64 (standard, URL-safe, unpadded)', () => {
    const secret = 'p@ss "w/rd"+=42?';
    const redactor = redactorWith(secret);
    for (const form of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      new URLSearchParams({ v: secret }).toString().slice(2),
      b64(secret),
      b64url(secret),
      b64(secret).replace(/=+$/, ''),
    ]) {
      const out = redactor.redact(`before ${form} after`);
      expect(out, form).toBe(`before ${SECRET_MASK} after`);
    }
  });

  it('masks the secret inside base64 of a longer text, whatever comes before it: Basic id:secret with any id', () => {
    const redactor = redactorWith(SECRET);
    for (const id of ['', 'a', 'ab', 'abc', 'client-17', 'someone@example.com']) {
      for (const encoded of [b64(`${id}:${SECRET}`), b64url(`${id}:${SECRET}`), b64(`{"token":"${SECRET}","n":1}`)]) {
        const out = redactor.redact(`Authorization: Basic ${encoded}`);
        expect(out, `${id} ${encoded}`).toContain(SECRET_MASK);
        // What is left of the base64 text cannot give the secret back.
        const left = out.replace('Authorization: Basic ', '').split(SECRET_MASK);
        for (const part of left)
          expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain(SECRET.slice(2, -2));
      }
    }
  });

  it('masks the credential of an Authorization value alone, and the password of a Basic one decoded', () => {
    const forms = secretForms(`Basic ${b64('alice:wonder-land-42')}`);
    expect(forms).toContain('alice:wonder-land-42');
    expect(forms).toContain('wonder-land-42');
    expect(secretForms('Bearer abc-123-xyz')).toContain('abc-123-xyz');
    const redactor = redactorWith('Bearer abc-123-xyz');
    expect(redactor.redact('the token abc-123-xyz was refused')).toBe(`the token ${SECRET_MASK} was refused`);
  });

  it('leaves short secrets and unrelated text alone, and is free when it knows no secret', () => {
    const redactor = redactorWith('abc', SECRET);
    expect(redactor.redact('abc def initialize tools/list')).toBe('abc def initialize tools/list');
    const empty = new SecretRedactor();
    expect(empty.active).toBe(false);
    const value = { a: [SECRET] };
    expect(empty.redactDeep(value)).toBe(value);
  });

  it('redacts every string of a value deeply, copying only what changed', () => {
    const redactor = redactorWith(SECRET);
    const untouched = { name: 'x', tools: [{ name: 'a' }] };
    const state = {
      name: 'echo',
      reason: `401: bad token ${SECRET}`,
      nested: [{ text: b64(SECRET) }],
      untouched,
      bytes: new Uint8Array([1]),
    };
    const out = redactor.redactDeep(state);
    expect(out).toEqual({
      name: 'echo',
      reason: `401: bad token ${SECRET_MASK}`,
      nested: [{ text: SECRET_MASK }],
      untouched,
      bytes: state.bytes,
    });
    expect(out.untouched).toBe(untouched);
    expect(state.reason).toContain(SECRET);
  });

  it('replaces an owner’s secrets and forgets deleted owners', () => {
    const redactor = new SecretRedactor();
    redactor.set('server:a', ['first-secret']);
    redactor.set('server:a', ['second-secret']);
    expect(redactor.redact('first-secret second-secret')).toBe(`first-secret ${SECRET_MASK}`);
    redactor.delete('server:a');
    expect(redactor.redact('second-secret')).toBe('second-secret');
  });
});

describe('configSecrets', () => {
  it('takes secret env values, secret headers, OAuth client credentials and id:secret', () => {
    const secrets = configSecrets({
      env: { TOKEN: 'env-secret', PLAIN: 'visible' },
      secretEnv: ['TOKEN', 'MISSING'],
      headers: { Authorization: 'Bearer hdr-secret', 'X-Team': 'core' },
      secretHeaders: [],
      oauth: { clientId: 'client-1', clientSecret: 'oauth-secret' },
    });
    expect(secrets).toEqual(['env-secret', 'Bearer hdr-secret', 'oauth-secret', 'client-1:oauth-secret']);
  });
});

describe('RedactingSecretStore', () => {
  function memoryStore(failSets = false): SecretStore & { values: Map<string, string> } {
    const values = new Map<string, string>();
    return {
      values,
      get: async (key) => values.get(key),
      set: async (key, value) => {
        if (failSets) throw new Error('disk full');
        values.set(key, value);
      },
      delete: async (key) => void values.delete(key),
    };
  }

  it('learns the values it reads and writes, the tokens and client secret inside OAuth records, and forgets deleted ones', async () => {
    const inner = memoryStore();
    inner.values.set('anthropic.apiKey', 'sk-ant-api-key-0000');
    const redactor = new SecretRedactor();
    const store = new RedactingSecretStore(inner, redactor);
    expect(await store.get('anthropic.apiKey')).toBe('sk-ant-api-key-0000');
    const record = {
      client: { client_id: 'cid-1', client_secret: 'client-secret-1' },
      tokens: {
        access_token: 'access-token-1',
        refresh_token: 'refresh-token-1',
        token_type: 'Bearer',
        expires_in: 3600,
      },
      dpopKey: { privateJwk: { d: 'private-d-value', x: 'public-x' } },
    };
    await store.set('oauth/notes/as/x', JSON.stringify(record));
    const text = `sk-ant-api-key-0000 access-token-1 refresh-token-1 client-secret-1 private-d-value ${b64('cid-1:client-secret-1')} Bearer public-x 3600`;
    expect(redactor.redact(text)).toBe(
      `${SECRET_MASK} ${SECRET_MASK} ${SECRET_MASK} ${SECRET_MASK} ${SECRET_MASK} ${SECRET_MASK} Bearer public-x 3600`,
    );
    await store.delete('oauth/notes/as/x');
    expect(redactor.redact('access-token-1')).toBe('access-token-1');
  });

  it('keeps masking the old value when writing a new one fails', async () => {
    const redactor = new SecretRedactor();
    const inner = memoryStore();
    inner.values.set('k', 'old-secret-value');
    const store = new RedactingSecretStore(
      { ...inner, set: async () => Promise.reject(new Error('disk full')) },
      redactor,
    );
    await store.get('k');
    await expect(store.set('k', 'new-secret-value')).rejects.toThrow('disk full');
    expect(redactor.redact('old-secret-value new-secret-value')).toBe(`${SECRET_MASK} ${SECRET_MASK}`);
  });

  it('reads a non-JSON value, or JSON that is not a record, as one secret', () => {
    expect(secretsInStoredValue('{not json')).toEqual(['{not json']);
    expect(secretsInStoredValue('plain')).toEqual(['plain']);
  });
});
