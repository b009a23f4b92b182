import { SECRET_MASK, isSecretHeader, type ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { ServerStartError, startWords } from '../../shared/domain/server-start-error';
import {
  configSecretSlots,
  extractPlainSecrets,
  isSecretSlot,
  parseSecretRef,
  referencedSecretIds,
  secretRef,
  sectionValues,
  serverSecretId,
  slotLabel,
} from './secret-refs';
import type { SecretSection, SecretSections } from './secret-refs';
import type { SecretStore } from './secret-store';
import { errorMessage } from '../../shared/error-message';
import { credentialError } from '../../shared/domain/credential-errors';

/** Options for {@linkcode ServerSecrets}. */
export interface ServerSecretsOptions {
  store: SecretStore;
  /** config.json's current text: a secret still referred to anywhere in it is never deleted. */
  configText: () => string;
  /** One line about values moved out of config.json (names only, never values). */
  info: (text: string) => void;
  /** A secret could not be stored or deleted (names only, never values). */
  warn: (text: string) => void;
  /** Values moved out of a hand-edited config.json replaced different stored ones: these servers run with stale values. */
  onValuesChanged?: (servers: string[]) => void;
}

/** What saving one server from the form did. */
export interface SecretSaveOutcome {
  /** The config as written to config.json: secret values replaced by references. */
  config: ServerConfig;
  /** A secret value differs from the one stored before (a running server needs a restart to see it). */
  secretsChanged: boolean;
}

/** One server save, as the handler asks for it. */
export interface SecretSaveRequest {
  name: string;
  /** From the form: new values, or SECRET_MASK for "keep the stored one". */
  incoming: ServerConfig;
  /** The config stored until now (under its old name when renaming); undefined for a new server. */
  stored?: ServerConfig;
  /** Writes the config (with references) to config.json. */
  write: (config: ServerConfig) => Promise<void>;
}

function own(env: Record<string, string>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(env, key) ? env[key] : undefined;
}

/**
 * Keeps the values of servers' secret env variables (`secretEnv` keys) and
 * secret headers and OAuth client credentials (remote servers) in the SecretStore and only references in config.json (format: secret-refs.ts).
 * Saving from the form stores values and writes references; starting a server
 * resolves them; a plain value found in the file is moved into the store;
 * renaming or removing a server moves or deletes its secrets.
 */
export class ServerSecrets {
  constructor(private readonly options: ServerSecretsOptions) {}

  /**
   * ConfigStore's hook for every text it reads or is given: the same text
   * with plain secret values replaced by references once they are stored, or
   * undefined when nothing moved. Never rejects: when the store refuses, the
   * values stay in the file (still working) and a warning says so.
   */
  async moveOutOfText(text: string): Promise<string | undefined> {
    const { text: next, moved } = extractPlainSecrets(text);
    if (moved.length === 0) return undefined;
    const replaced = new Set<string>();
    try {
      for (const secret of moved) {
        const before = await this.options.store.get(secret.id);
        if (before !== undefined && before !== secret.value) replaced.add(secret.server);
        await this.options.store.set(secret.id, secret.value);
      }
    } catch (error) {
      this.options.warn(
        `could not move secret values out of config.json into the secret store (${errorMessage(error)}); they stay in the file for now`,
      );
      return undefined;
    }
    const names = moved.map((secret) => `${secret.server}: ${slotLabel(secret)}`).join(', ');
    this.options.info(
      `moved ${moved.length} secret value${moved.length === 1 ? '' : 's'} (${names}) from config.json into the secret store; the file now refers to them as \${secret:…}`,
    );
    if (replaced.size > 0) this.options.onValuesChanged?.([...replaced]);
    return next;
  }

  /**
   * The config a server is spawned with: every reference replaced by its
   * value (and its key treated as secret, so logs redact it). A missing value
   * is a ServerStartError naming the key and the fix; the reference text is
   * never passed to the server.
   */
  async resolve(name: string, config: ServerConfig): Promise<ServerConfig> {
    const slots = configSecretSlots(config);
    if (slots.length === 0) return config;
    const filled = {
      env: { ...config.env },
      headers: { ...config.headers },
      oauth: { ...config.oauth } as Record<string, string>,
    };
    const secretHeaders = new Set(config.secretHeaders);
    for (const slot of slots) {
      const place = { section: slot.section, key: slot.key };
      let value: string | undefined;
      try {
        value = await this.options.store.get(slot.id);
      } catch (error) {
        const words = startWords('server-start.secret-unreadable', { ...place, detail: errorMessage(error) });
        throw new ServerStartError(words.text, 'config', undefined, undefined, words.hostMessage);
      }
      if (value === undefined) {
        const words = startWords('server-start.secret-missing', { ...place, ref: secretRef(slot.id), server: name });
        throw new ServerStartError(words.text, 'config', undefined, undefined, words.hostMessage);
      }
      filled[slot.section][slot.key] = value;
      if (slot.section === 'headers' && !isSecretHeader(config, slot.key)) secretHeaders.add(slot.key);
    }
    const envKeys = slots.filter((slot) => slot.section === 'env').map((slot) => slot.key);
    return {
      ...config,
      env: filled.env,
      headers: filled.headers,
      ...(config.oauth === undefined ? {} : { oauth: { ...config.oauth, ...filled.oauth } }),
      secretEnv: [...new Set([...config.secretEnv, ...envKeys])],
      secretHeaders: [...secretHeaders],
    };
  }

  /**
   * Save one server: each `secretEnv` value goes to the store under this
   * server's id (SECRET_MASK keeps the stored value, also across a rename),
   * then `write` stores the config with references. If the write fails the
   * store is put back as it was. Afterwards secrets of the old config that
   * nothing in config.json refers to any more (renamed, removed or no longer
   * secret keys) are deleted.
   */
  async save(request: SecretSaveRequest): Promise<SecretSaveOutcome> {
    const { name, incoming, stored } = request;
    const values = new Map<string, string>();
    const withRefs = async (section: SecretSection): Promise<Record<string, string>> => {
      const out: Record<string, string> = {};
      for (const [key, value] of Object.entries(sectionValues(incoming, section))) {
        const plain = value === SECRET_MASK ? await this.storedValue(stored, section, key) : value;
        if (!isSecretSlot(incoming, section, key) || parseSecretRef(plain) !== undefined || plain === '') {
          out[key] = plain;
          continue;
        }
        const id = serverSecretId(name, key, section);
        values.set(id, plain);
        out[key] = secretRef(id);
      }
      return out;
    };
    const env = await withRefs('env');
    const headers = await withRefs('headers');
    const oauth = incoming.oauth === undefined ? undefined : { ...incoming.oauth, ...(await withRefs('oauth')) };
    const config: ServerConfig = { ...incoming, env, headers, ...(oauth === undefined ? {} : { oauth }) };
    const previous = new Map<string, string | undefined>();
    let secretsChanged = false;
    try {
      for (const [id, value] of values) {
        const before = await this.options.store.get(id);
        previous.set(id, before);
        secretsChanged ||= before !== value;
        await this.options.store.set(id, value);
      }
    } catch (error) {
      await this.restore(previous);
      throw HostError.coded(
        'IO_ERROR',
        credentialError('credential-errors.store-failed', { server: name, detail: errorMessage(error) }),
      );
    }
    try {
      await request.write(config);
    } catch (error) {
      await this.restore(previous);
      throw error;
    }
    if (stored !== undefined) await this.forget(stored);
    return { config, secretsChanged };
  }

  /** Delete the secrets `config` refers to that nothing in config.json refers to any more (a removed or renamed server). */
  async forget(config: SecretSections): Promise<void> {
    const stillUsed = referencedSecretIds(this.options.configText());
    for (const slot of configSecretSlots(config)) {
      if (stillUsed.has(slot.id)) continue;
      try {
        await this.options.store.delete(slot.id);
      } catch (error) {
        this.options.warn(
          `could not delete the stored secret ${slot.id} (${slotLabel(slot)}) that no server uses any more: ${errorMessage(error)}`,
        );
      }
    }
  }

  /** What SECRET_MASK stands for: the stored secret value of `key` (an env key or a header name). */
  private async storedValue(stored: ServerConfig | undefined, section: SecretSection, key: string): Promise<string> {
    const field = `config.${section}.${key}`;
    const wasSecret = stored !== undefined && isSecretSlot(stored, section, key);
    const storedText = wasSecret ? own(sectionValues(stored, section), key) : undefined;
    if (storedText === undefined) {
      throw HostError.coded(
        'INVALID_INPUT',
        credentialError('credential-errors.mask-without-secret', { section, key, mask: SECRET_MASK }),
        field,
      );
    }
    const id = parseSecretRef(storedText);
    if (id === undefined) return storedText;
    const value = await this.options.store.get(id);
    if (value === undefined) {
      throw HostError.coded(
        'INVALID_INPUT',
        credentialError('credential-errors.stored-secret-missing', { section, key }),
        field,
      );
    }
    return value;
  }

  /** Put the store back as it was before a save that did not reach config.json. */
  private async restore(previous: Map<string, string | undefined>): Promise<void> {
    for (const [id, value] of previous) {
      try {
        if (value === undefined) await this.options.store.delete(id);
        else await this.options.store.set(id, value);
      } catch (error) {
        this.options.warn(`could not put the stored secret ${id} back after a failed save: ${errorMessage(error)}`);
      }
    }
  }
}
