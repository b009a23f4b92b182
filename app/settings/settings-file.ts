import { z } from 'zod';
import { THEME_CHOICES } from '../../shared/domain/appearance';
import { LANGUAGE_CHOICES } from '../../shared/domain/language';
import { REASONING_LEVELS } from '../../shared/domain/reasoning';
import { SamplingLimitsSchema } from '../../shared/domain/sampling-limits';
import { ModelRanksSchema } from '../../shared/domain/model-ranks';
import { MAX_RESULT_LIMIT_TOKENS, MIN_RESULT_LIMIT_TOKENS } from '../../shared/domain/result-limits';
import { AnthropicModelsSchema } from './anthropic-models';

export const SETTINGS_FILE = 'settings.json';

export const ResultLimitSchema = z.number().int().min(MIN_RESULT_LIMIT_TOKENS).max(MAX_RESULT_LIMIT_TOKENS);

// Loose: keys a newer Berth (or the person) added survive our own writes.
export const SettingsFileSchema = z.looseObject({
  defaultModel: z.string().trim().min(1).optional(),
  /** The Language setting (shared/domain/language.ts); absent: auto, the system's language. */
  language: z.enum(LANGUAGE_CHOICES).optional(),
  /** The theme and the folded panes (shared/domain/appearance.ts); absent: follow the OS, nothing folded. */
  appearance: z
    .object({
      theme: z.enum(THEME_CHOICES).optional(),
      sidebarCollapsed: z.boolean().optional(),
      conversationsCollapsed: z.boolean().optional(),
    })
    .optional(),
  /** Anthropic's models (anthropic-models.ts); absent: Berth's defaults. */
  models: AnthropicModelsSchema.optional(),
  baseURL: z.url({ protocol: /^https?$/, error: 'baseURL must be an http(s) URL' }).optional(),
  /**
   * Where Berth's OAuth client ID metadata document is published (an https URL, SEP-991): authorization
   * servers that accept one use it as Berth's client ID instead of a registration. Set by whoever hosts it.
   */
  oauthClientMetadataUrl: z
    .url({ protocol: /^https$/, error: 'oauthClientMetadataUrl must be an https URL' })
    .optional(),
  /** Only 'never' is kept across restarts; 'allow-session' ends with the session by definition. */
  samplingPolicies: z.record(z.string(), z.literal('never')).optional(),
  /** Per-server max tokens per sampling request and tokens per Berth session; servers not listed use the defaults. */
  samplingLimits: z.record(z.string(), SamplingLimitsSchema).optional(),
  /** Per model key: the tier and ranks the person set for mapping servers' model preferences; models not listed use their defaults. */
  modelRanks: z.record(z.string(), ModelRanksSchema).optional(),
  /** Per server: whether tools that may run as an MCP task (`taskSupport: optional`) do; servers not listed: yes. */
  tasksForOptionalTools: z.record(z.string(), z.boolean()).optional(),
  /** Per server: whether its `instructions` go into the system prompt of conversations offering its tools; servers not listed: yes. */
  sendInstructions: z.record(z.string(), z.boolean()).optional(),
  /** Per server: the most estimated tokens one of its tool results takes in a model request (app/chat/results); servers not listed: Berth's default. */
  resultLimits: z.record(z.string(), ResultLimitSchema).optional(),
  /** When tool search starts for conversations left on `auto` (shared/domain/tool-search.ts); absent: the defaults. */
  toolSearch: z
    .object({ countAbove: z.number().int().min(0).max(100_000), shareAbove: z.number().min(0).max(1) })
    .optional(),
  /** The reasoning of conversations left on the default, and whether servers' sampling may reason (shared/domain/reasoning.ts); absent: off, no. */
  reasoning: z.object({ level: z.enum(REASONING_LEVELS).optional(), sampling: z.boolean().optional() }).optional(),
  /** OpenAI-compatible providers beside the built-in Anthropic; each entry is checked on its own (provider-settings.ts). */
  providers: z.array(z.unknown(), { error: 'providers must be a list' }).optional(),
});
export type SettingsFile = z.infer<typeof SettingsFileSchema>;
