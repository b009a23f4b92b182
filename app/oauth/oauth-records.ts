import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { SecretStore } from '../secrets/secret-store';
import { StoredDpopKeySchema, type StoredDpopKey } from './dpop-key';

/**
 * What Berth keeps per server, in the SecretStore:
 * - `oauth/<server>/index`: the server URL the rest belongs to, which
 *   authorization servers (issuers) hold records, the issuer of the newest
 *   tokens, and the cached discovery state;
 * - `oauth/<server>/as/<issuer, URI-encoded>`: the client registration and the
 *   tokens issued by that authorization server, and the DPoP key its tokens
 *   are bound to (when it issues DPoP-bound tokens).
 * Client IDs are only valid at the authorization server that issued them
 * (RFC 6749 §2.2), hence one record per issuer. The index exists because the
 * store cannot list its keys, and sign-out must find every record.
 */
const IndexSchema = z.object({
  version: z.literal(1),
  serverUrl: z.string(),
  issuers: z.array(z.string()),
  current: z.string().optional(),
  discovery: z.record(z.string(), z.unknown()).optional(),
  /** The scope a server asked for beyond what was granted (403 insufficient_scope), for the next sign-in to ask for. */
  wantedScope: z.string().optional(),
});
type OAuthIndex = z.infer<typeof IndexSchema>;

const IssuerRecordSchema = z.object({
  client: z.record(z.string(), z.unknown()).optional(),
  tokens: z.record(z.string(), z.unknown()).optional(),
  /** When the tokens were saved (ms since the epoch), to tell when the access token expires. */
  savedAt: z.number().optional(),
  /** The DPoP key of this registration (RFC 9449): its tokens are bound to it. */
  dpopKey: StoredDpopKeySchema.optional(),
});
type IssuerRecord = z.infer<typeof IssuerRecordSchema>;

/** The store ids Berth uses for one server's OAuth state. */
export function oauthIndexId(server: string): string {
  return `oauth/${server}/index`;
}

export function oauthIssuerId(server: string, issuer: string): string {
  return `oauth/${server}/as/${encodeURIComponent(issuer)}`;
}

function parseJson<T>(text: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Changes to one server's records, per store, one at a time: a connection's
 * refresh and a sign-in each have their own provider (and OAuthRecords) over
 * the same store.
 */
const CHAINS = new WeakMap<SecretStore, Map<string, Promise<void>>>();

/**
 * One server's OAuth records. Writes go one at a time (across every
 * OAuthRecords of the same store), so a token refresh and a sign-out never
 * interleave. A record that cannot be parsed
 * reads as absent (the person signs in again), never as an error.
 */
export class OAuthRecords {
  constructor(
    private readonly store: SecretStore,
    readonly server: string,
    /** Records saved for another URL (the entry was edited) are ignored: tokens are bound to their resource. */
    readonly serverUrl: string,
  ) {}

  private serialize<T>(run: () => Promise<T>): Promise<T> {
    let chains = CHAINS.get(this.store);
    if (chains === undefined) CHAINS.set(this.store, (chains = new Map()));
    const next = (chains.get(this.server) ?? Promise.resolve()).then(run);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    chains.set(this.server, settled);
    // The map keeps only work in progress.
    void settled.then(() => {
      if (chains.get(this.server) === settled) chains.delete(this.server);
    });
    return next;
  }

  private async readIndex(): Promise<OAuthIndex | undefined> {
    const index = parseJson(await this.store.get(oauthIndexId(this.server)), IndexSchema);
    return index?.serverUrl === this.serverUrl ? index : undefined;
  }

  private async readIssuer(issuer: string): Promise<IssuerRecord> {
    return parseJson(await this.store.get(oauthIssuerId(this.server, issuer)), IssuerRecordSchema) ?? {};
  }

  /** The index to write into: the current one, or a fresh one (dropping the records of another URL, which can never be used again). */
  private async writableIndex(): Promise<OAuthIndex> {
    const stored = parseJson(await this.store.get(oauthIndexId(this.server)), IndexSchema);
    if (stored?.serverUrl === this.serverUrl) return stored;
    for (const issuer of stored?.issuers ?? []) await this.store.delete(oauthIssuerId(this.server, issuer));
    return { version: 1, serverUrl: this.serverUrl, issuers: [] };
  }

  async client(issuer: string): Promise<StoredOAuthClientInformation | undefined> {
    if ((await this.readIndex())?.issuers.includes(issuer) !== true) return undefined;
    return (await this.readIssuer(issuer)).client as StoredOAuthClientInformation | undefined;
  }

  /** The tokens of `issuer`, or of the newest sign-in when no issuer is named (the transport's per-request read). */
  async tokens(issuer?: string): Promise<{ tokens: StoredOAuthTokens; savedAt: number | undefined } | undefined> {
    const index = await this.readIndex();
    const which = issuer ?? index?.current;
    if (which === undefined || index?.issuers.includes(which) !== true) return undefined;
    const record = await this.readIssuer(which);
    return record.tokens === undefined
      ? undefined
      : { tokens: record.tokens as StoredOAuthTokens, savedAt: record.savedAt };
  }

  async dpopKey(issuer: string): Promise<StoredDpopKey | undefined> {
    if ((await this.readIndex())?.issuers.includes(issuer) !== true) return undefined;
    return (await this.readIssuer(issuer)).dpopKey;
  }

  saveDpopKey(issuer: string, dpopKey: StoredDpopKey): Promise<void> {
    return this.serialize(() => this.updateIssuer(issuer, (record) => ({ ...record, dpopKey })));
  }

  async discovery(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.readIndex())?.discovery as OAuthDiscoveryState | undefined;
  }

  saveClient(issuer: string, client: StoredOAuthClientInformation): Promise<void> {
    return this.serialize(() => this.updateIssuer(issuer, (record) => ({ ...record, client })));
  }

  saveTokens(issuer: string, tokens: StoredOAuthTokens, savedAt: number): Promise<void> {
    return this.serialize(() => this.updateIssuer(issuer, (record) => ({ ...record, tokens, savedAt }), true));
  }

  /** `onlyIfSignedIn`: keep nothing for a server never signed in to (a connection's 401 runs discovery too). */
  saveDiscovery(discovery: OAuthDiscoveryState, onlyIfSignedIn = false): Promise<void> {
    return this.serialize(async () => {
      if (onlyIfSignedIn && (await this.readIndex()) === undefined) return;
      const index = await this.writableIndex();
      await this.writeIndex({ ...index, discovery: discovery as unknown as Record<string, unknown> });
    });
  }

  async wantedScope(): Promise<string | undefined> {
    return (await this.readIndex())?.wantedScope;
  }

  /** Only for a server signed in to: a step-up is about widening a grant that exists. */
  saveWantedScope(scope: string): Promise<void> {
    return this.serialize(async () => {
      const index = await this.readIndex();
      if (index !== undefined) await this.writeIndex({ ...index, wantedScope: scope });
    });
  }

  /** Forget the client registrations (`client`) or tokens (`tokens`) of every authorization server. */
  forget(what: 'client' | 'tokens'): Promise<void> {
    return this.serialize(async () => {
      const index = await this.readIndex();
      for (const issuer of index?.issuers ?? []) {
        const record = await this.readIssuer(issuer);
        const next: IssuerRecord =
          what === 'client' ? { ...record, client: undefined } : { ...record, tokens: undefined, savedAt: undefined };
        await this.store.set(oauthIssuerId(this.server, issuer), JSON.stringify(next));
      }
    });
  }

  forgetDiscovery(): Promise<void> {
    return this.serialize(async () => {
      const index = await this.readIndex();
      if (index !== undefined) await this.writeIndex({ ...index, discovery: undefined });
    });
  }

  /** Everything for this server, whichever URL it was saved for. */
  forgetAll(): Promise<void> {
    return this.serialize(async () => {
      const index = parseJson(await this.store.get(oauthIndexId(this.server)), IndexSchema);
      for (const issuer of index?.issuers ?? []) await this.store.delete(oauthIssuerId(this.server, issuer));
      await this.store.delete(oauthIndexId(this.server));
    });
  }

  private async updateIssuer(
    issuer: string,
    change: (record: IssuerRecord) => IssuerRecord,
    makeCurrent = false,
  ): Promise<void> {
    const index = await this.writableIndex();
    const known = index.issuers.includes(issuer);
    const record = known ? await this.readIssuer(issuer) : {};
    // The index is written first, so a record is never left where sign-out cannot find it.
    if (!known || (makeCurrent && index.current !== issuer)) {
      await this.writeIndex({
        ...index,
        issuers: known ? index.issuers : [...index.issuers, issuer],
        current: makeCurrent ? issuer : index.current,
      });
    }
    await this.store.set(oauthIssuerId(this.server, issuer), JSON.stringify(change(record)));
  }

  private writeIndex(index: OAuthIndex): Promise<void> {
    return this.store.set(oauthIndexId(this.server), JSON.stringify(index));
  }
}

/**
 * A server was renamed in Berth: its records follow it (written under the
 * new name first, so a failure halfway leaves the old ones usable).
 */
export async function moveOAuthRecords(store: SecretStore, from: string, to: string): Promise<void> {
  const indexText = await store.get(oauthIndexId(from));
  if (indexText === undefined) return;
  const issuers = parseJson(indexText, IndexSchema)?.issuers ?? [];
  for (const issuer of issuers) {
    const record = await store.get(oauthIssuerId(from, issuer));
    if (record !== undefined) await store.set(oauthIssuerId(to, issuer), record);
  }
  await store.set(oauthIndexId(to), indexText);
  for (const issuer of issuers) await store.delete(oauthIssuerId(from, issuer));
  await store.delete(oauthIndexId(from));
}
