import { z } from 'zod';
import { REASONING_SUPPORTS } from './reasoning';
import { ANTHROPIC_PROVIDER_ID, PROVIDER_ID_PATTERN } from './model-key';

// Configured model providers besides the built-in Anthropic one: what
// settings.json keeps, what the Settings screen edits. Keys never appear
// here; they live in the secret store.

export const PROVIDER_PRESETS = ['openai', 'ollama', 'lmstudio', 'openrouter', 'custom'] as const;
export type ProviderPreset = (typeof PROVIDER_PRESETS)[number];

export interface ProviderPresetInfo {
  label: string;
  /** Filled in when the preset is picked; `custom` has none. */
  baseUrl: string;
  /** Hosted services refuse requests without a key; local servers take none. */
  needsKey: boolean;
  /** Words for a connection that fails before any answer ("is Ollama running?"). */
  serverName: string;
}

export const PRESET_INFO: Record<ProviderPreset, ProviderPresetInfo> = {
  openai: { label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, serverName: 'OpenAI' },
  ollama: { label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', needsKey: false, serverName: 'Ollama' },
  lmstudio: { label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false, serverName: 'LM Studio' },
  openrouter: {
    label: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    serverName: 'OpenRouter',
  },
  custom: { label: 'Custom (OpenAI-compatible)', baseUrl: '', needsKey: false, serverName: 'the server' },
};

export const MODEL_TIER_NAMES = ['fast', 'balanced', 'smart'] as const;

const rank = z.number().int().min(1).max(100);

/** A model of a configured provider. Ranks and tier feed sampling's model choice (1 = cheapest / fastest / most capable). */
export const ProviderModelSchema = z
  .object({
    /** The provider's own id: what its API takes (`llama3.1:8b`, `openai/gpt-4o`). */
    id: z.string().trim().min(1, 'a model needs an id').max(200),
    label: z.string().trim().min(1).max(200).optional(),
    /** Off for models that cannot call tools (many small local ones): they get no tools and the chat says so. */
    supportsTools: z.boolean().default(true),
    /**
     * Whether the model is sent images (a person's attachments, images tools return); when it is not, each image
     * becomes a short note and the chat says so. Absent: Berth's guess from the model's name (model-images.ts).
     */
    takesImages: z.boolean().optional(),
    contextWindow: z.number().int().min(1).max(100_000_000).optional(),
    /** How the model takes reasoning, as the provider's listing said (Anthropic's capabilities); absent: Berth's table. */
    reasoning: z.enum(REASONING_SUPPORTS).optional(),
    /** The provider's own context management (Anthropic's server-side compaction), as its listing said; absent: no. */
    contextManagement: z.boolean().optional(),
    tier: z.enum(MODEL_TIER_NAMES).optional(),
    costRank: rank.optional(),
    speedRank: rank.optional(),
    intelligenceRank: rank.optional(),
  })
  .strict();
export type ProviderModel = z.output<typeof ProviderModelSchema>;

export const ProviderIdSchema = z
  .string()
  .trim()
  .regex(
    PROVIDER_ID_PATTERN,
    'A provider id is 1–40 lowercase letters, digits or dashes, starting with a letter or digit',
  )
  .refine(
    (id) => id !== ANTHROPIC_PROVIDER_ID,
    `'${ANTHROPIC_PROVIDER_ID}' is the built-in provider; choose another id`,
  );

/** What Berth says of a base URL with a user name or password in it, where it is typed and where it would be used. */
export const BASE_URL_CREDENTIALS_MESSAGE =
  'The base URL must not hold a user name or password (the part before @): remove it and put the key in the API key field, where Berth keeps it as a secret.';

/** Why `url` may not be a provider's base URL for the credentials it carries (settings.json, logs and the screen would show them), or undefined. */
export function baseUrlCredentialsProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.username === '' && parsed.password === '' ? undefined : BASE_URL_CREDENTIALS_MESSAGE;
}

/** A base URL for the screen: a password (read from settings.json or the environment, refused at use) never reaches the renderer. */
export function baseUrlForDisplay(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.toString();
}

/** A base URL as settings.json may hold it: one with credentials is still read, so the person can see it named and fix it, and refused at use. */
export const StoredProviderBaseUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'The base URL must be an http:// or https:// URL',
});

/** A base URL as it may be typed. */
export const ProviderBaseUrlSchema = StoredProviderBaseUrlSchema.refine(
  (url) => baseUrlCredentialsProblem(url) === undefined,
  BASE_URL_CREDENTIALS_MESSAGE,
);

const uniqueModelIds = (models: readonly { id: string }[]): boolean =>
  new Set(models.map((m) => m.id)).size === models.length;

/** One configured provider as settings.json keeps it. */
export const ProviderConfigSchema = z
  .object({
    id: ProviderIdSchema,
    label: z.string().trim().min(1, 'Give the provider a name').max(80),
    kind: z.literal('openai-compatible').default('openai-compatible'),
    preset: z.enum(PROVIDER_PRESETS),
    baseUrl: ProviderBaseUrlSchema,
    models: z
      .array(ProviderModelSchema)
      .max(500)
      .default([])
      .refine(uniqueModelIds, 'Model ids must be unique within a provider'),
  })
  .strict();
export type ProviderConfig = z.output<typeof ProviderConfigSchema>;
/** A provider as read from settings.json: as typed, except a base URL with credentials is read (and refused at use). */
export const StoredProviderConfigSchema = ProviderConfigSchema.extend({ baseUrl: StoredProviderBaseUrlSchema });
/** What a person (or the renderer) sends to add a provider: defaults not yet applied. */
export type ProviderConfigInput = z.input<typeof ProviderConfigSchema>;

/** A change to a provider; the id stays (conversations keep model keys with it). */
export const ProviderChangesSchema = z
  .object({
    label: ProviderConfigSchema.shape.label.optional(),
    preset: z.enum(PROVIDER_PRESETS).optional(),
    baseUrl: ProviderBaseUrlSchema.optional(),
    models: z
      .array(ProviderModelSchema)
      .max(500)
      .refine(uniqueModelIds, 'Model ids must be unique within a provider')
      .optional(),
  })
  .strict();
export type ProviderChanges = z.input<typeof ProviderChangesSchema>;

/** Whether the provider's key is stored: never the key, at most its last four characters. */
export const ProviderKeyStatusSchema = z.object({ set: z.boolean(), hint: z.string().optional() });

/** A provider as the Settings screen shows it. */
export const ProviderViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['anthropic', 'openai-compatible']),
  preset: z.enum([...PROVIDER_PRESETS, 'anthropic']),
  /** Where requests go; the built-in Anthropic provider shows its base URL only when one is set. */
  baseUrl: z.string().optional(),
  models: z.array(ProviderModelSchema),
  key: ProviderKeyStatusSchema,
  /** Requests are refused without a key (hosted services). */
  needsKey: z.boolean(),
  /** Chat can run: a key is there, or none is needed. */
  ready: z.boolean(),
  /** The built-in Anthropic provider: its key and models are set elsewhere and it cannot be removed. */
  builtIn: z.boolean(),
});
export type ProviderView = z.infer<typeof ProviderViewSchema>;

/**
 * A model as the pickers offer it: under its provider, by its model key. The
 * host always fills every field; a model without `provider` is read as the
 * built-in Anthropic's (how views from before providers looked).
 */
export const ModelOptionSchema = z.object({
  /** The model key (plain for Anthropic, `<provider>:<model>` otherwise). */
  id: z.string(),
  label: z.string(),
  provider: z.string().optional(),
  providerLabel: z.string().optional(),
  supportsTools: z.boolean().optional(),
  /** False when the provider needs a key that is not set: sending would fail. */
  ready: z.boolean().optional(),
  /** How the model takes reasoning (shared/domain/reasoning.ts); absent from an older host. */
  reasoning: z.enum(REASONING_SUPPORTS).optional(),
});
export type ModelOption = z.infer<typeof ModelOptionSchema>;

export { groupByProvider, type ModelGroup } from './model-groups';
