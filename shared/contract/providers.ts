import { z } from 'zod';
import { MODEL_TIER_NAMES, ProviderChangesSchema, ProviderConfigSchema, ProviderViewSchema } from '../domain/providers';
import { REASONING_SUPPORTS } from '../domain/reasoning';
import { HostMessageSchema } from '../domain/host-message';
import { method } from './define';

/** The providers Settings lists: the built-in Anthropic first, then the configured ones. */
export const ProvidersViewSchema = z.object({ providers: z.array(ProviderViewSchema) });
export type ProvidersView = z.infer<typeof ProvidersViewSchema>;

const providerId = z.string().trim().min(1).max(40);
const apiKey = z
  .string()
  .trim()
  .min(8, 'That is too short to be an API key')
  .max(1000, 'That is too long to be an API key');

/** A model as the provider lists it (its own id). */
export const ListedModelSchema = z.object({
  id: z.string(),
  label: z.string().optional(),
  contextWindow: z.number().optional(),
  /** The provider says whether the model takes images (Anthropic's `capabilities.image_input`). */
  takesImages: z.boolean().optional(),
  /** The provider's model line as a tier (Anthropic: haiku → fast, sonnet → balanced, opus → smart). */
  tier: z.enum(MODEL_TIER_NAMES).optional(),
  /** How the model takes reasoning, from the provider's capabilities (Anthropic's `thinking` and `effort`). */
  reasoning: z.enum(REASONING_SUPPORTS).optional(),
  /** Whether the provider compacts the model's context itself (Anthropic's `context_management.compact_20260112`). */
  contextManagement: z.boolean().optional(),
});

/**
 * What a key check found, with the provider's cheapest call (Anthropic: GET /v1/models?limit=1; OpenAI-compatible:
 * GET /models): `works`; `refused` (401/403) with the provider's own words as `detail`; `unchecked` when the call
 * could not say (offline, a timeout, the provider failing): the key stays saved, and `reason` says why.
 */
export const KeyCheckSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('works') }),
  z.object({ result: z.literal('refused'), provider: z.string(), status: z.number(), detail: z.string() }),
  z.object({ result: z.literal('unchecked'), reason: z.string(), reasonMessage: HostMessageSchema.optional() }),
]);
export type KeyCheck = z.infer<typeof KeyCheckSchema>;

export const providersMethods = {
  'providers.list': method({
    summary:
      'The model providers: the built-in Anthropic and the configured OpenAI-compatible ones (key status, never the key).',
    input: z.object({}).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.add': method({
    summary: 'Add an OpenAI-compatible provider (kept in settings.json); its key, if given, goes to the secret store.',
    input: z.object({ provider: ProviderConfigSchema, apiKey: apiKey.optional() }).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.update': method({
    summary: 'Change a configured provider: name, preset, base URL, models (the id stays).',
    input: z.object({ id: providerId, changes: ProviderChangesSchema }).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.remove': method({
    summary:
      'Remove a configured provider and its stored key; conversations using its models stay and say so when sent.',
    input: z.object({ id: providerId }).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.setKey': method({
    summary: 'Store a provider’s API key as a secret.',
    input: z.object({ id: providerId, apiKey }).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.clearKey': method({
    summary: 'Forget a provider’s stored API key.',
    input: z.object({ id: providerId }).strict(),
    output: ProvidersViewSchema,
  }),
  'providers.listModels': method({
    summary: 'The models the provider lists right now (GET /models); fails with words saying what is wrong.',
    input: z.object({ id: providerId }).strict(),
    output: z.object({ models: z.array(ListedModelSchema) }),
  }),
  'providers.check': method({
    summary:
      'Test connection: reach the provider with its key (and, with `model`, that model); `message` says exactly what is wrong.',
    input: z.object({ id: providerId, model: z.string().trim().min(1).max(200).optional() }).strict(),
    output: z.object({
      ok: z.boolean(),
      message: z.string(),
      /** `message` as a code, when Berth refused the test itself (no key, a base URL holding a password). */
      hostMessage: HostMessageSchema.optional(),
    }),
  }),
  'providers.checkKey': method({
    summary: "Check the provider's saved key with its cheapest call (after a save): works, refused, or unchecked.",
    input: z.object({ id: providerId }).strict(),
    output: KeyCheckSchema,
  }),
};

export const providersTopics = {
  'providers.changed': ProvidersViewSchema,
};
