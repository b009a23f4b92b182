import { join } from 'node:path';
import { HostError } from '../../shared/result';
import { settingsIssueWords } from '../../shared/domain/settings-issue-words';
import { settingsError } from '../../shared/domain/settings-errors';
import type { SettingsView } from '../../shared/contract/settings';
import type { SamplingPolicy } from '../../shared/domain/consent';
import { DEFAULT_SAMPLING_LIMITS, SamplingLimitsSchema } from '../../shared/domain/sampling-limits';
import type { ConfiguredLimits, SamplingLimits } from '../../shared/domain/sampling-limits';
import { atomicWriteFile } from '../config/atomic-write';
import { loadStateFile } from '../config/state-file';
import type { SecretStore } from '../secrets/secret-store';
import { DEFAULT_MODEL_ID, DEFAULT_MODELS, type ConfiguredModel } from './model-table';
import { toAnthropicModels } from './anthropic-models';
import { baseUrlForDisplay, type ProviderModel } from '../../shared/domain/providers';
import { errorMessage } from '../../shared/error-message';
import { ModelRanksSchema, type ModelRanks } from '../../shared/domain/model-ranks';
import {
  apiContextManagement,
  buildCatalog,
  catalogReasoning,
  toModelOption,
  type CatalogModel,
} from './model-catalog';
import { ProviderSettings } from './provider-settings';
import { withServerRenamed, withoutKey, withoutServer, type PerServerKey } from './per-server-keys';
import { MAX_RESULT_LIMIT_TOKENS, MIN_RESULT_LIMIT_TOKENS } from '../../shared/domain/result-limits';
import { ResultLimitSchema, SETTINGS_FILE, SettingsFileSchema, type SettingsFile } from './settings-file';
import { DEFAULT_TOOL_SEARCH_THRESHOLDS, type ToolSearchThresholds } from '../../shared/domain/tool-search';
import { DEFAULT_REASONING } from '../../shared/domain/reasoning';
import type { ReasoningDefaults, ReasoningSupport } from '../../shared/domain/reasoning';
import type { LanguageChoice } from '../../shared/domain/language';
import { DEFAULT_APPEARANCE, type Appearance } from '../../shared/domain/appearance';

export { SETTINGS_FILE } from './settings-file';

/** The SecretStore key of the Anthropic API key. */
export const API_KEY_SECRET = 'anthropic.apiKey';

/** Options for {@linkcode SettingsStore.open}. */
export interface SettingsStoreOptions {
  configDir: string;
  secrets: SecretStore;
  /** Where ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL are read (the host's environment). */
  env: NodeJS.ProcessEnv;
  /** A problem the person should know about; never carries the key. */
  warn: (text: string) => void;
  now?: () => number;
  /** The OS's preferred languages (Electron); absent in browser mode, where the renderer asks the browser. */
  systemLanguages?: () => readonly string[];
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** `…a1b2`: enough to tell keys apart, never enough to use one. */
export function keyHint(key: string): string {
  return `…${key.slice(-4)}`;
}

/**
 * Chat and sampling settings: the model list (defaults, overridable by
 * `<configDir>/settings.json`), the default model, the base URL, persisted
 * "never" sampling policies, and the Anthropic API key — from
 * ANTHROPIC_API_KEY if set, else from the SecretStore. The key is held in
 * memory for the provider and never appears in any view or message.
 */
export class SettingsStore {
  private file: SettingsFile = {};
  private storedKey: string | undefined;
  private saveBlocked: string | undefined;
  private writing: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(view: SettingsView) => void>();
  readonly filePath: string;
  /** The configured providers besides Anthropic, and their keys. */
  readonly providers: ProviderSettings;
  private readonly now: () => number;

  private constructor(private readonly options: SettingsStoreOptions) {
    this.filePath = join(options.configDir, SETTINGS_FILE);
    this.now = options.now ?? Date.now;
    this.providers = new ProviderSettings({
      secrets: options.secrets,
      raw: () => this.file.providers,
      save: (providers) => this.save({ ...this.file, providers }),
      filePath: this.filePath,
      warn: options.warn,
      onChanged: () => void this.changed(),
    });
  }

  /** Read settings.json and the stored key. Never rejects for a bad file (it is moved aside and reported). */
  static async open(options: SettingsStoreOptions): Promise<SettingsStore> {
    const store = new SettingsStore(options);
    await store.readFile();
    await store.providers.loadKeys();
    store.warnUnknownDefault();
    try {
      store.storedKey = nonEmpty(await options.secrets.get(API_KEY_SECRET));
    } catch (error) {
      options.warn(`could not read the stored API key: ${errorMessage(error)}`);
    }
    return store;
  }

  /** The key to use, or undefined when chat and sampling cannot run. */
  apiKey(): string | undefined {
    return nonEmpty(this.options.env.ANTHROPIC_API_KEY) ?? this.storedKey;
  }

  /** Berth's client ID metadata document, when one is published (settings.json `oauthClientMetadataUrl`). */
  oauthClientMetadataUrl(): string | undefined {
    return this.file.oauthClientMetadataUrl;
  }

  /** undefined: the SDK's default (the public API). */
  baseURL(): string | undefined {
    return nonEmpty(this.options.env.ANTHROPIC_BASE_URL) ?? this.file.baseURL;
  }

  /** Anthropic's models (the built-in provider). */
  models(): ConfiguredModel[] {
    return (this.file.models ?? DEFAULT_MODELS).map((model) => ({ ...model }));
  }

  /** Keep Anthropic's models as the person listed them (Settings → Model providers); INVALID_INPUT for a list that cannot be kept. */
  async setModels(models: readonly ProviderModel[]): Promise<SettingsView> {
    await this.save({ ...this.file, models: toAnthropicModels(models, this.models()) });
    return this.changed();
  }

  /** Every provider's models by model key, Anthropic's first. */
  catalog(): CatalogModel[] {
    return buildCatalog(
      { models: this.models(), ready: this.apiKey() !== undefined },
      this.providers.list().map((config) => ({ config, ready: this.providers.ready(config) })),
    );
  }

  /** The model's context window in tokens (by model key), when the model table or its provider gives one. */
  contextWindow(model: string): number | undefined {
    return this.catalog().find((m) => m.key === model)?.contextWindow;
  }

  /** A model key: the settings file's default when it is still offered, else Anthropic's default. */
  defaultModel(): string {
    const catalog = this.catalog();
    const keys = catalog.map((m) => m.key);
    const chosen = this.file.defaultModel;
    if (chosen !== undefined && keys.includes(chosen)) return chosen;
    const builtIn = keys.includes(DEFAULT_MODEL_ID) ? DEFAULT_MODEL_ID : (keys[0] as string);
    // Nobody chose one: Berth's own default while its provider can answer, else the first model
    // that can — a person with only a local model (or only an OpenAI key) chats with it at once.
    if (catalog.find((m) => m.key === builtIn)?.ready === true) return builtIn;
    return catalog.find((m) => m.ready)?.key ?? builtIn;
  }

  /** INVALID_INPUT unless `model` is the key of one of the offered models. */
  checkModel(model: string, field = 'model'): void {
    const keys = this.catalog().map((m) => m.key);
    if (!keys.includes(model)) {
      throw HostError.coded(
        'INVALID_INPUT',
        settingsError('settings-errors.unknown-model', { model, models: keys.join(', '), file: this.filePath }),
        field,
      );
    }
  }

  samplingPolicies(): Record<string, SamplingPolicy> {
    return { ...(this.file.samplingPolicies ?? {}) };
  }

  /** A server's sampling cap and session budget: its own, else Berth's defaults. */
  samplingLimits(server: string): ConfiguredLimits {
    const own = this.file.samplingLimits?.[server];
    return own === undefined
      ? { limits: { ...DEFAULT_SAMPLING_LIMITS }, custom: false }
      : { limits: { ...own }, custom: true };
  }

  /** Servers with limits of their own. */
  samplingLimitServers(): string[] {
    return Object.keys(this.file.samplingLimits ?? {});
  }

  /** The person's own tier and ranks, by model key. */
  modelRanks(): Record<string, ModelRanks> {
    return { ...(this.file.modelRanks ?? {}) };
  }

  /** Keep the person's tier and ranks for one model (undefined: back to its defaults). */
  async setModelRanks(model: string, ranks: ModelRanks | undefined): Promise<void> {
    const all = this.modelRanks();
    if (ranks === undefined) delete all[model];
    else all[model] = ModelRanksSchema.parse(ranks);
    await this.save({ ...this.file, modelRanks: all });
  }

  /** Keep a server's sampling limits; `undefined` goes back to the defaults. INVALID_INPUT for values out of range. */
  async setSamplingLimits(server: string, limits: SamplingLimits | undefined): Promise<ConfiguredLimits> {
    const parsed = limits === undefined ? undefined : SamplingLimitsSchema.safeParse(limits);
    if (parsed?.success === false) {
      const issue = parsed.error.issues[0];
      throw new HostError(
        'INVALID_INPUT',
        issue?.message ?? 'Those sampling limits are not valid',
        issue?.path.map(String).join('.') || undefined,
        settingsIssueWords(parsed.error.issues)?.hostMessage,
      );
    }
    await this.setPerServer('samplingLimits', server, parsed?.data);
    return this.samplingLimits(server);
  }

  /** Whether the server's tools that may run as an MCP task do (default yes: a long call then survives the request timeout and can be followed and cancelled). */
  tasksForOptionalTools(server: string): boolean {
    return this.file.tasksForOptionalTools?.[server] ?? true;
  }

  /** Keep the server's choice; `undefined` goes back to the default (yes). */
  async setTasksForOptionalTools(server: string, asTasks: boolean | undefined): Promise<boolean> {
    await this.setPerServer('tasksForOptionalTools', server, asTasks);
    return this.tasksForOptionalTools(server);
  }

  /** Servers whose choice differs from the default (yes). */
  tasksForOptionalToolsServers(): string[] {
    return Object.keys(this.file.tasksForOptionalTools ?? {});
  }

  /** When tool search starts for conversations on `auto`. */
  toolSearchThresholds(): ToolSearchThresholds {
    return this.file.toolSearch ?? DEFAULT_TOOL_SEARCH_THRESHOLDS;
  }

  async setToolSearchThresholds(thresholds: ToolSearchThresholds): Promise<ToolSearchThresholds> {
    await this.save({ ...this.file, toolSearch: { ...thresholds } });
    return this.toolSearchThresholds();
  }

  /** The reasoning level conversations on the default use, and whether sampling may reason. */
  reasoningDefaults(): ReasoningDefaults {
    return { level: this.file.reasoning?.level ?? DEFAULT_REASONING, sampling: this.file.reasoning?.sampling ?? false };
  }

  async setReasoningDefaults(patch: Partial<ReasoningDefaults>): Promise<ReasoningDefaults> {
    await this.save({ ...this.file, reasoning: { ...this.reasoningDefaults(), ...patch } });
    return this.reasoningDefaults();
  }

  /** How the model of key `model` takes reasoning ('unknown' for a key no provider offers now). */
  reasoningSupport(model: string): ReasoningSupport {
    const entry = this.catalog().find((m) => m.key === model);
    return entry === undefined ? 'unknown' : catalogReasoning(entry);
  }

  /** Whether the model of key `model` has Anthropic's own context management (its listing said so). */
  contextManagement(model: string): boolean {
    const entry = this.catalog().find((m) => m.key === model);
    return entry !== undefined && apiContextManagement(entry);
  }

  /** Whether the server's instructions go into the system prompt of conversations that offer its tools (default yes). */
  sendsInstructions(server: string): boolean {
    return this.file.sendInstructions?.[server] ?? true;
  }

  /** Keep the server's choice; `undefined` goes back to the default (yes). */
  async setSendInstructions(server: string, send: boolean | undefined): Promise<boolean> {
    await this.setPerServer('sendInstructions', server, send);
    return this.sendsInstructions(server);
  }

  /** A server's limit for one tool result in the model's request (estimated tokens), when the person set one; undefined: Berth's default. */
  resultLimit(server: string): number | undefined {
    return this.file.resultLimits?.[server];
  }

  /** Keep the server's result limit; `undefined` goes back to the default. INVALID_INPUT out of range. */
  async setResultLimit(server: string, tokens: number | undefined): Promise<number | undefined> {
    if (tokens !== undefined && !ResultLimitSchema.safeParse(tokens).success) {
      throw HostError.coded(
        'INVALID_INPUT',
        settingsError('settings-errors.result-limit-range', {
          min: MIN_RESULT_LIMIT_TOKENS,
          max: MAX_RESULT_LIMIT_TOKENS,
        }),
        'limitTokens',
      );
    }
    await this.setPerServer('resultLimits', server, tokens);
    return this.resultLimit(server);
  }

  /** Keep one server's value in a per-server record of settings.json; `undefined` forgets it (back to the default). */
  private async setPerServer<K extends PerServerKey>(
    key: K,
    server: string,
    value: NonNullable<SettingsFile[K]>[string] | undefined,
  ): Promise<void> {
    const record: Record<string, unknown> = this.file[key] ?? {};
    await this.save({
      ...this.file,
      [key]: value === undefined ? withoutKey(record, server) : { ...record, [server]: value },
    });
  }

  /**
   * The server left the config: its per-server settings go too, so a new server of that name
   * starts from the defaults. No write when it had none.
   */
  async forgetServer(server: string): Promise<void> {
    const next = withoutServer(this.file, server);
    if (next !== undefined) await this.save(next);
  }

  /** The server was renamed in Berth: its per-server settings follow it (before the old name is forgotten). */
  async renameServer(from: string, to: string): Promise<void> {
    const next = withServerRenamed(this.file, from, to);
    if (next !== undefined) await this.save(next);
  }

  view(): SettingsView {
    const envKey = nonEmpty(this.options.env.ANTHROPIC_API_KEY);
    const key = envKey ?? this.storedKey;
    const baseURL = this.baseURL();
    return {
      apiKey:
        key === undefined
          ? { source: 'none' }
          : { source: envKey !== undefined ? 'env' : 'stored', hint: keyHint(key) },
      ...(baseURL !== undefined ? { baseURL: baseUrlForDisplay(baseURL) } : {}),
      models: this.catalog().map(toModelOption),
      defaultModel: this.defaultModel(),
      language: this.file.language ?? 'auto',
      systemLanguages: this.systemLanguages(),
      appearance: { ...DEFAULT_APPEARANCE, ...this.file.appearance },
    };
  }

  /** The OS's languages as the shell gave them; a shell that cannot say gives none (never a reason to fail the view). */
  private systemLanguages(): string[] {
    try {
      return [...(this.options.systemLanguages?.() ?? [])]
        .filter((tag) => tag.length > 0 && tag.length <= 100)
        .slice(0, 50);
    } catch (error) {
      this.options.warn(`could not read the system's languages: ${errorMessage(error)}`);
      return [];
    }
  }

  /** Keep the Language setting (`auto`: follow the system) and tell every window. */
  async setLanguage(language: LanguageChoice): Promise<SettingsView> {
    const next: SettingsFile = { ...this.file, language };
    if (language === 'auto') delete next.language;
    await this.save(next);
    return this.changed();
  }

  /**
   * Keep what is given of the theme and the folded panes (the defaults are not written) and tell
   * every window. One change after another: each merges into what the one before it saved, so two
   * quick toggles (the sidebar, then the list) both count.
   */
  setAppearance(changes: Partial<Appearance>): Promise<SettingsView> {
    const run = this.appearanceChanges.then(() => this.applyAppearance(changes));
    this.appearanceChanges = run.catch(() => undefined);
    return run;
  }

  private async applyAppearance(changes: Partial<Appearance>): Promise<SettingsView> {
    const merged: Partial<Appearance> = { ...this.file.appearance, ...changes };
    for (const key of Object.keys(merged) as (keyof Appearance)[]) {
      if (merged[key] === DEFAULT_APPEARANCE[key]) delete merged[key];
    }
    const next: SettingsFile = { ...this.file, appearance: merged };
    if (Object.keys(merged).length === 0) delete next.appearance;
    await this.save(next);
    return this.changed();
  }

  async setApiKey(apiKey: string): Promise<SettingsView> {
    const key = apiKey.trim();
    if (key.length < 8 || /\s/.test(key))
      throw HostError.coded('INVALID_INPUT', settingsError('settings-errors.not-an-api-key', {}), 'apiKey');
    try {
      await this.options.secrets.set(API_KEY_SECRET, key);
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.store-key-failed', { detail: errorMessage(error) }),
      );
    }
    this.storedKey = key;
    return this.changed();
  }

  async clearApiKey(): Promise<SettingsView> {
    try {
      await this.options.secrets.delete(API_KEY_SECRET);
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.remove-key-failed', { detail: errorMessage(error) }),
      );
    }
    this.storedKey = undefined;
    return this.changed();
  }

  async setDefaultModel(model: string): Promise<SettingsView> {
    this.checkModel(model);
    await this.save({ ...this.file, defaultModel: model });
    return this.changed();
  }

  /** Keep (or drop) a server's 'never' sampling policy across restarts. */
  async setSamplingNever(server: string, never: boolean): Promise<void> {
    const policies = { ...(this.file.samplingPolicies ?? {}) };
    if (never === (policies[server] === 'never')) return;
    if (never) policies[server] = 'never';
    else delete policies[server];
    await this.save({ ...this.file, samplingPolicies: policies });
  }

  /** Resolves once every settings.json write so far has finished. */
  async flush(): Promise<void> {
    await this.writing;
  }

  onChange(listener: (view: SettingsView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): SettingsView {
    const view = this.view();
    for (const listener of [...this.listeners]) listener(view);
    return view;
  }

  private appearanceChanges: Promise<unknown> = Promise.resolve();

  private async save(next: SettingsFile): Promise<void> {
    if (this.saveBlocked !== undefined)
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.save-blocked', { file: this.filePath, detail: this.saveBlocked }),
      );
    const text = `${JSON.stringify(next, null, 2)}\n`;
    const write = this.writing.then(() => atomicWriteFile(this.filePath, text));
    this.writing = write.catch(() => undefined);
    try {
      await write;
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        settingsError('settings-errors.save-failed', { file: this.filePath, detail: errorMessage(error) }),
      );
    }
    this.file = next;
  }

  private async readFile(): Promise<void> {
    const loaded = await loadStateFile(this.filePath, SettingsFileSchema, this.now);
    if (loaded.kind === 'missing') return;
    if (loaded.kind === 'unusable') {
      if (loaded.saveBlocked !== undefined) this.saveBlocked = loaded.saveBlocked;
      this.options.warn(`${loaded.message}; using the default settings`);
      return;
    }
    this.file = loaded.data;
  }

  /** Once providers are read: a default model nobody offers is reported. */
  private warnUnknownDefault(): void {
    const wanted = this.file.defaultModel;
    if (wanted !== undefined && !this.catalog().some((m) => m.key === wanted)) {
      this.options.warn(
        `${this.filePath}: defaultModel '${wanted}' is not in the model list; using ${this.defaultModel()}`,
      );
    }
  }
}
