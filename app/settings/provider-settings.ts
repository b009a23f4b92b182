import type { z } from 'zod';
import { HostError } from '../../shared/result';
import { settingsError } from '../../shared/domain/settings-errors';
import { settingsIssueWords } from '../../shared/domain/settings-issue-words';
import { errorMessage } from '../../shared/error-message';
import {
  ProviderChangesSchema,
  ProviderConfigSchema,
  PRESET_INFO,
  StoredProviderConfigSchema,
} from '../../shared/domain/providers';
import type { ProviderChanges, ProviderConfig, ProviderConfigInput } from '../../shared/domain/providers';
import type { SecretStore } from '../secrets/secret-store';

/** The SecretStore key of a configured provider's API key. */
export function providerKeySecret(id: string): string {
  return `provider.${id}.apiKey`;
}

export interface ProviderSettingsDeps {
  secrets: SecretStore;
  /** settings.json's `providers` as read (entries Berth could not use included). */
  raw: () => readonly unknown[] | undefined;
  /** Write a new `providers` array to settings.json. */
  save: (raw: unknown[]) => Promise<void>;
  filePath: string;
  warn: (text: string) => void;
  /** Providers or keys changed: the model list and readiness may have too. */
  onChanged: () => void;
}

function invalid(error: z.ZodError): HostError {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  return new HostError(
    'INVALID_INPUT',
    issue?.message ?? 'That provider is not valid',
    path === '' ? undefined : path,
    settingsIssueWords(error.issues)?.hostMessage,
  );
}

function checkKey(apiKey: string): string {
  const key = apiKey.trim();
  if (key.length < 8 || /\s/.test(key))
    throw HostError.coded('INVALID_INPUT', settingsError('settings-errors.not-an-api-key', {}), 'apiKey');
  return key;
}

function idOf(entry: unknown): string | undefined {
  return entry !== null && typeof entry === 'object' && 'id' in entry && typeof entry.id === 'string'
    ? entry.id
    : undefined;
}

/**
 * The configured OpenAI-compatible providers in settings.json and their keys
 * in the secret store. Reading is tolerant: an entry that cannot be used is
 * reported and skipped but kept in the file, so nothing the person wrote is
 * lost by Berth's next write.
 */
export class ProviderSettings {
  private readonly keys = new Map<string, string>();
  private parsed: { from: readonly unknown[] | undefined; providers: ProviderConfig[]; problems: string[] } | undefined;

  constructor(private readonly deps: ProviderSettingsDeps) {}

  /** Read every provider's stored key; reports (never throws) what cannot be read. */
  async loadKeys(): Promise<void> {
    for (const problem of this.read().problems) this.deps.warn(problem);
    for (const provider of this.list()) {
      try {
        const key = (await this.deps.secrets.get(providerKeySecret(provider.id)))?.trim();
        if (key !== undefined && key !== '') this.keys.set(provider.id, key);
      } catch (error) {
        this.deps.warn(`could not read the stored key of provider '${provider.id}': ${errorMessage(error)}`);
      }
    }
  }

  list(): ProviderConfig[] {
    return this.read().providers.map((provider) => ({
      ...provider,
      models: provider.models.map((model) => ({ ...model })),
    }));
  }

  get(id: string): ProviderConfig | undefined {
    return this.list().find((provider) => provider.id === id);
  }

  /** The provider's stored key; undefined when none is set. Never leaves the host. */
  key(id: string): string | undefined {
    return this.keys.get(id);
  }

  /** A key is set, or the provider's preset needs none. */
  ready(provider: ProviderConfig): boolean {
    return !PRESET_INFO[provider.preset].needsKey || this.keys.has(provider.id);
  }

  /** NOT_FOUND unless the provider is configured. */
  require(id: string): ProviderConfig {
    const provider = this.get(id);
    if (provider === undefined)
      throw HostError.coded(
        'NOT_FOUND',
        settingsError('settings-errors.provider-not-found', { id, file: this.deps.filePath }),
        'id',
      );
    return provider;
  }

  async add(input: ProviderConfigInput, apiKey?: string): Promise<ProviderConfig> {
    const parsed = ProviderConfigSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error);
    const provider = parsed.data;
    const raw = this.deps.raw() ?? [];
    if (raw.some((entry) => idOf(entry) === provider.id))
      throw HostError.coded('CONFLICT', settingsError('settings-errors.provider-id-taken', { id: provider.id }), 'id');
    const key = apiKey === undefined || apiKey.trim() === '' ? undefined : checkKey(apiKey);
    await this.deps.save([...raw, provider]);
    if (key !== undefined) await this.storeKey(provider.id, key);
    this.deps.onChanged();
    return provider;
  }

  async update(id: string, changes: ProviderChanges): Promise<ProviderConfig> {
    const current = this.require(id);
    const parsedChanges = ProviderChangesSchema.safeParse(changes);
    if (!parsedChanges.success) throw invalid(parsedChanges.error);
    const merged = ProviderConfigSchema.safeParse({ ...current, ...parsedChanges.data });
    if (!merged.success) throw invalid(merged.error);
    const raw = this.deps.raw() ?? [];
    // Only the first entry with this id is the provider; a later duplicate stays as it was (reported at start).
    const index = raw.findIndex((entry) => idOf(entry) === id);
    await this.deps.save(raw.map((entry, i) => (i === index ? merged.data : entry)));
    this.deps.onChanged();
    return merged.data;
  }

  /** Conversations using its models keep their model keys; their next turn says the provider is gone. */
  async remove(id: string): Promise<void> {
    this.require(id);
    const raw = this.deps.raw() ?? [];
    await this.deps.save(raw.filter((entry) => idOf(entry) !== id));
    if (this.keys.has(id)) await this.forgetKey(id);
    this.deps.onChanged();
  }

  async setKey(id: string, apiKey: string): Promise<void> {
    this.require(id);
    await this.storeKey(id, checkKey(apiKey));
    this.deps.onChanged();
  }

  async clearKey(id: string): Promise<void> {
    this.require(id);
    await this.forgetKey(id);
    this.deps.onChanged();
  }

  private async storeKey(id: string, key: string): Promise<void> {
    try {
      await this.deps.secrets.set(providerKeySecret(id), key);
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.provider-store-key-failed', { id, detail: errorMessage(error) }),
      );
    }
    this.keys.set(id, key);
  }

  private async forgetKey(id: string): Promise<void> {
    try {
      await this.deps.secrets.delete(providerKeySecret(id));
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.provider-remove-key-failed', { id, detail: errorMessage(error) }),
      );
    }
    this.keys.delete(id);
  }

  /** The usable providers (cached until settings.json's array changes) and why the others are not. */
  private read(): { providers: ProviderConfig[]; problems: string[] } {
    const raw = this.deps.raw();
    if (this.parsed !== undefined && this.parsed.from === raw) return this.parsed;
    const providers: ProviderConfig[] = [];
    const problems: string[] = [];
    (raw ?? []).forEach((entry, index) => {
      const parsed = StoredProviderConfigSchema.safeParse(entry);
      const name = idOf(entry) ?? `#${index + 1}`;
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? ` (${issue.path.map(String).join('.')})` : '';
        problems.push(`${this.deps.filePath}: provider ${name} is skipped: ${issue?.message ?? 'not valid'}${where}`);
      } else if (providers.some((p) => p.id === parsed.data.id)) {
        problems.push(`${this.deps.filePath}: provider ${name} is listed twice; the second entry is skipped`);
      } else providers.push(parsed.data);
    });
    this.parsed = { from: raw, providers, problems };
    return { providers, problems };
  }
}
