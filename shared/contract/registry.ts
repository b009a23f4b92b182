import { z } from 'zod';
import { ServerNameSchema } from '../domain/server';
import { HostMessageSchema } from '../domain/host-message';
import { ConfirmedRisksSchema, ImportWarningSchema } from './config-import';
import { method } from './define';
import { SandboxChoiceSchema } from './sandbox';

/** A registry's base URL as the person configures it: http(s), no credentials in it. */
export const RegistryUrlSchema = z
  .string()
  .trim()
  .max(2_000, 'That address is too long')
  .refine(
    (text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol),
    'Enter a registry address such as https://registry.modelcontextprotocol.io',
  )
  .refine(
    (text) => !URL.canParse(text) || (new URL(text).username === '' && new URL(text).password === ''),
    'Leave user names and passwords out of the address',
  );

/** The registry's lifecycle status of one version. */
export const RegistryStatusSchema = z.enum(['active', 'deprecated', 'deleted']);

/** One search result: what the list shows. Every string was cleaned of control characters and bounded by the host. */
export const RegistryEntrySchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string(),
  status: RegistryStatusSchema,
  statusMessage: z.string().optional(),
  publishedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  /** How it can run: `npm`, `pypi`, `oci`, … for packages; `remote` for a hosted server. */
  kinds: z.array(z.string()),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

/** One value an install asks for: an env variable, a header, an argument or a URL variable. */
export const InstallFieldSchema = z.object({
  /** Stable key for the answer: `env:NAME`, `header:Name`, `arg:package:0`, `url:var:tenant`, and `…:var:x` for a variable inside a value. */
  id: z.string(),
  label: z.string(),
  description: z.string().optional(),
  kind: z.enum(['env', 'header', 'argument', 'variable']),
  required: z.boolean(),
  /** Kept in the secret store, shown masked, never on a command line. */
  secret: z.boolean(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']),
  choices: z.array(z.string()).optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  /** The argument may be given several times: one value per line, each put on the command line in turn. */
  repeated: z.boolean().optional(),
});
export type InstallField = z.infer<typeof InstallFieldSchema>;

/** One way to run an entry: a package (npm, pypi, oci…) or a remote. */
export const InstallOptionSchema = z.object({
  index: z.number().int(),
  kind: z.enum(['package', 'remote']),
  /** e.g. `@scope/name@1.2.3` (its registryType says npm), or the remote's URL template. */
  label: z.string(),
  registryType: z.string().optional(),
  transport: z.string(),
  /** Why Berth cannot install this option yet (e.g. a nuget package). */
  unsupported: z.string().optional(),
  /** The program it needs on the launch PATH (npx, uvx, docker). */
  runtime: z.string().optional(),
  fields: z.array(InstallFieldSchema),
});
export type InstallOption = z.infer<typeof InstallOptionSchema>;

export const RegistryEntryDetailsSchema = RegistryEntrySchema.extend({
  repository: z.object({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() }).optional(),
  websiteUrl: z.string().optional(),
  /** What the publisher says to do after installing: shown as text, never run. */
  postInstallInstructions: z.string().optional(),
  options: z.array(InstallOptionSchema),
});
export type RegistryEntryDetails = z.infer<typeof RegistryEntryDetailsSchema>;

/** How fresh an answer is: from the registry now, or from the disk cache because the registry failed. */
const FreshnessShape = {
  /** Epoch ms the registry sent this answer. */
  fetchedAt: z.number(),
  fromCache: z.boolean(),
  /** Why cached results are shown (the registry's failure in words). */
  notice: z.string().optional(),
};

/**
 * Exactly what an install would run, for the person to read before saying
 * yes (the same review the config import shows). Secret values are masked,
 * header values left out.
 */
export const LaunchPlanSchema = z.object({
  kind: z.enum(['stdio', 'remote']),
  command: z.string().optional(),
  resolvedCommand: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  secretEnvKeys: z.array(z.string()),
  url: z.string().optional(),
  transport: z.string().optional(),
  headerNames: z.array(z.string()).optional(),
  secretHeaderNames: z.array(z.string()),
  warnings: z.array(ImportWarningSchema),
  /** Where to get the runtime when it is not on the launch PATH. */
  runtimeMissing: z.string().optional(),
  /** The package comes from a registry other than its type's public one: where, and what that means. The review asks for a yes to it. */
  packageSource: z
    .object({ url: z.string(), message: z.string(), hostMessage: HostMessageSchema.optional() })
    .optional(),
  /** How the review's sandbox starts: off, with the reason, for a server the OS sandbox cannot hold (a container runs in its own). */
  sandboxDefault: z.object({ enabled: z.boolean(), reason: z.string().optional() }).optional(),
});
export type LaunchPlan = z.infer<typeof LaunchPlanSchema>;

/** A field the install review refuses: `message` in English, `hostMessage` its code where it has one. */
export const InstallFieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
  hostMessage: HostMessageSchema.optional(),
});
export type InstallFieldError = z.infer<typeof InstallFieldErrorSchema>;

const RegistryRef = {
  registry: RegistryUrlSchema,
  name: z.string().min(3).max(200),
  version: z.string().min(1).max(255).default('latest'),
};

const InstallRequest = z
  .object({
    ...RegistryRef,
    option: z.number().int().min(0).max(100),
    serverName: ServerNameSchema,
    values: z.record(z.string().max(500), z.string().max(100_000)).default({}),
  })
  .strict();

/** One published version of an entry, newest last as the registry lists them. */
export const RegistryVersionSchema = z.object({
  version: z.string(),
  status: RegistryStatusSchema,
  publishedAt: z.string().optional(),
  isLatest: z.boolean(),
});
export type RegistryVersion = z.infer<typeof RegistryVersionSchema>;

/** An installed server's newer version in its registry. */
export const RegistryUpdateSchema = z.object({
  server: z.string(),
  registry: z.string(),
  name: z.string(),
  installed: z.string(),
  latest: z.string(),
});
export type RegistryUpdate = z.infer<typeof RegistryUpdateSchema>;

export const registryMethods = {
  'registry.sources': method({
    summary: 'The registries Discover searches (the first is the default).',
    input: z.object({}).strict(),
    output: z.object({ registries: z.array(z.string()) }),
  }),
  'registry.setSources': method({
    summary: 'Change the registries Discover searches (the first is the default); kept in registries.json.',
    input: z.object({ registries: z.array(RegistryUrlSchema).min(1, 'Keep at least one registry').max(20) }).strict(),
    output: z.object({ registries: z.array(z.string()) }),
  }),
  'registry.search': method({
    summary:
      "Search a registry's servers by name (latest versions), one page at a time; cached results when it cannot be reached.",
    input: z
      .object({
        registry: RegistryUrlSchema,
        query: z.string().max(200).default(''),
        cursor: z.string().max(2_000).optional(),
        limit: z.number().int().min(1).max(100).default(20),
      })
      .strict(),
    output: z.object({
      servers: z.array(RegistryEntrySchema),
      nextCursor: z.string().optional(),
      skipped: z.number().int(),
      ...FreshnessShape,
    }),
  }),
  'registry.details': method({
    summary: 'One server.json: description, links, status, and how it can be installed (the values each way asks for).',
    input: z.object(RegistryRef).strict(),
    output: z.object({
      entry: RegistryEntryDetailsSchema,
      installedAs: z.array(z.object({ server: z.string(), version: z.string() })),
      ...FreshnessShape,
    }),
  }),
  'registry.versions': method({
    summary:
      "Every published version of one entry (the registry's version list), so the person can pick one to install.",
    input: z.object({ registry: RegistryUrlSchema, name: RegistryRef.name }).strict(),
    output: z.object({ versions: z.array(RegistryVersionSchema), ...FreshnessShape }),
  }),
  'registry.review': method({
    summary:
      'What installing one option with these values would run (command, args, env, or URL and headers), or what is missing.',
    input: InstallRequest,
    output: z.discriminatedUnion('ready', [
      /** `reviewId` names exactly this config: installing it cannot install anything else, even if the registry changes meanwhile. */
      z.object({ ready: z.literal(true), reviewId: z.string(), serverName: z.string(), plan: LaunchPlanSchema }),
      z.object({ ready: z.literal(false), errors: z.array(InstallFieldErrorSchema) }),
    ]),
  }),
  'registry.install': method({
    summary:
      'Add the reviewed server (secrets to the secret store) and start it; it remembers its registry, name and version.',
    input: z
      .object({
        reviewId: z.string().min(1).max(100),
        sandbox: SandboxChoiceSchema.optional(),
        confirmed: ConfirmedRisksSchema,
      })
      .strict(),
    output: z.discriminatedUnion('installed', [
      z.object({ installed: z.literal(true), server: z.string() }),
      z.object({ installed: z.literal(false), errors: z.array(InstallFieldErrorSchema) }),
    ]),
  }),
  'registry.updates': method({
    summary: 'Installed servers whose registry has a newer version.',
    input: z.object({}).strict(),
    output: z.object({ updates: z.array(RegistryUpdateSchema), problems: z.array(z.string()) }),
  }),
  'registry.update': method({
    summary:
      "Rewrite an installed server's config for its registry's latest version, keeping its values and secrets; restarts it if it runs.",
    input: z.object({ server: z.string().min(1).max(200) }).strict(),
    output: z.object({ server: z.string(), version: z.string() }),
  }),
};
