import { createHash, webcrypto } from 'node:crypto';
import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** The one DPoP algorithm Berth signs with; an authorization server that does not list it gets Bearer tokens as before. */
export const DPOP_ALG = 'ES256';

/** A DPoP key as kept in the secret store (with the client registration it belongs to). */
export const StoredDpopKeySchema = z.object({
  alg: z.literal(DPOP_ALG),
  privateJwk: z.record(z.string(), z.unknown()),
  publicJwk: z.record(z.string(), z.unknown()),
});
export type StoredDpopKey = z.infer<typeof StoredDpopKeySchema>;

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * Whether an authorization server takes DPoP proofs Berth can make: its
 * metadata lists ES256 in `dpop_signing_alg_values_supported` (RFC 9449 §5.1).
 */
export function supportsDpop(metadata: unknown): boolean {
  const algs = (metadata as { dpop_signing_alg_values_supported?: unknown } | undefined)
    ?.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(DPOP_ALG);
}

/** RFC 7638 JWK thumbprint of an EC public key. */
function thumbprint(jwk: Record<string, unknown>): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * The DPoP session for a client registration: from its stored key, or a new
 * key (returned as `created` for the caller to store). The key is kept,
 * encrypted with the tokens, because DPoP-bound tokens — refresh tokens of a
 * public client included — are only usable with the key they were bound to:
 * a key that died with the process would mean signing in at every start.
 */
export async function dpopSessionFor(
  stored: StoredDpopKey | undefined,
): Promise<{ session: DpopSession; created?: StoredDpopKey }> {
  if (stored !== undefined) {
    const privateKey = await webcrypto.subtle.importKey(
      'jwk',
      stored.privateJwk as webcrypto.JsonWebKey,
      EC_P256,
      false,
      ['sign'],
    );
    const publicKey = await webcrypto.subtle.importKey('jwk', stored.publicJwk as webcrypto.JsonWebKey, EC_P256, true, [
      'verify',
    ]);
    const keyPair = {
      privateKey,
      publicKey,
      publicJwk: stored.publicJwk,
      thumbprint: thumbprint(stored.publicJwk),
      alg: DPOP_ALG,
    } as unknown as DpopKeyPair;
    return { session: await DpopSession.create({ keyPair }) };
  }
  const keyPair = await generateDpopKeyPair({ alg: DPOP_ALG, extractable: true });
  const privateJwk = (await webcrypto.subtle.exportKey('jwk', keyPair.privateKey as webcrypto.CryptoKey)) as Record<
    string,
    unknown
  >;
  const publicJwk = { ...(keyPair.publicJwk as Record<string, unknown>) };
  return { session: await DpopSession.create({ keyPair }), created: { alg: DPOP_ALG, privateJwk, publicJwk } };
}
