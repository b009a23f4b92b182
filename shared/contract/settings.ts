import { z } from 'zod';
import { THEME_CHOICES } from '../domain/appearance';
import { LANGUAGE_CHOICES } from '../domain/language';
import { ModelOptionSchema } from '../domain/providers';
import { method } from './define';

/**
 * Where the Anthropic API key comes from. The key itself never leaves the
 * host: only its last four characters, as `hint` (e.g. `…a1b2`).
 */
export const ApiKeyStatusSchema = z.object({
  /** `env`: ANTHROPIC_API_KEY (wins over a stored key); `stored`: saved in Settings; `none`: chat cannot run. */
  source: z.enum(['env', 'stored', 'none']),
  hint: z.string().optional(),
});
export type ApiKeyStatus = z.infer<typeof ApiKeyStatusSchema>;

/** The theme and the folded panes (shared/domain/appearance.ts). */
export const AppearanceSchema = z.object({
  theme: z.enum(THEME_CHOICES),
  sidebarCollapsed: z.boolean(),
  conversationsCollapsed: z.boolean(),
});

/** What the Settings screen shows. */
export const SettingsViewSchema = z.object({
  apiKey: ApiKeyStatusSchema,
  /** ANTHROPIC_BASE_URL (or the settings file's baseURL) when set; otherwise the public API is used. */
  baseURL: z.string().optional(),
  /** Every provider's models, by model key, the built-in Anthropic's first. */
  models: z.array(ModelOptionSchema),
  defaultModel: z.string(),
  /** The Language setting: `auto` (or absent) follows the system (shared/domain/language.ts). */
  language: z.enum(LANGUAGE_CHOICES).optional(),
  /**
   * The OS's preferred languages, most wanted first, when the host can read them (Electron's
   * app.getPreferredSystemLanguages()); empty in browser mode, where the renderer goes by the browser's.
   */
  systemLanguages: z.array(z.string().max(100)).max(50).optional(),
  /** The theme and the folded panes; absent from a host that predates them (the defaults then). */
  appearance: AppearanceSchema.optional(),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

export const settingsMethods = {
  'settings.get': method({
    summary: 'API key status (never the key), models and the default model.',
    input: z.object({}).strict(),
    output: SettingsViewSchema,
  }),
  'settings.setApiKey': method({
    summary: 'Store the Anthropic API key as a secret (OS keychain, or a 0600 file in browser mode).',
    input: z
      .object({
        apiKey: z
          .string()
          .trim()
          .min(8, 'That is too short to be an API key')
          .max(500, 'That is too long to be an API key'),
      })
      .strict(),
    output: SettingsViewSchema,
  }),
  'settings.clearApiKey': method({
    summary: 'Forget the stored API key.',
    input: z.object({}).strict(),
    output: SettingsViewSchema,
  }),
  'settings.setDefaultModel': method({
    summary: 'The model new conversations use: the key of one of the offered models.',
    input: z.object({ model: z.string().trim().min(1).max(200) }).strict(),
    output: SettingsViewSchema,
  }),
  'settings.setLanguage': method({
    summary: 'The language Berth speaks: one of its languages, or auto to follow the system.',
    input: z.object({ language: z.enum(LANGUAGE_CHOICES) }).strict(),
    output: SettingsViewSchema,
  }),
  'settings.setAppearance': method({
    summary:
      'How Berth looks: the theme (system, light or dark) and which panes are folded; only what is given changes.',
    input: AppearanceSchema.partial().strict(),
    output: SettingsViewSchema,
  }),
};

export const settingsTopics = {
  'settings.changed': SettingsViewSchema,
};
