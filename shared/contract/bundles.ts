import { z } from 'zod';
import { HostMessageSchema } from '../domain/host-message';
import { ServerNameSchema, ServerStateSchema } from '../domain/server';
import { ConfirmedRisksSchema, ImportWarningSchema } from './config-import';
import { method } from './define';
import { SandboxChoiceSchema } from './sandbox';

/**
 * MCP Bundles (`.mcpb`): a zip with a `manifest.json` and a local server.
 * A bundle is untrusted: the host reads and validates it, extracts it into a
 * staging folder of its own, and nothing runs before the person has seen the
 * exact command (`bundles.review`) and installed it.
 */

/** The largest bundle file Berth opens (the archive itself, not what it unpacks to). */
export const MAX_BUNDLE_FILE_BYTES = 256 * 1024 * 1024;
/** One `bundles.upload` chunk, base64: well under the browser-mode bridge's 8 MiB frame. */
export const MAX_UPLOAD_CHUNK_CHARS = 4 * 1024 * 1024;

/** The value types a bundle's `user_config` field can take (the manifest's `type`). */
export const BUNDLE_FIELD_TYPES = ['string', 'number', 'boolean', 'directory', 'file'] as const;

/** One setting a bundle asks for (`user_config.<key>` in its manifest), as a form field. */
export const BundleFieldSchema = z.object({
  key: z.string(),
  type: z.enum(BUNDLE_FIELD_TYPES),
  title: z.string(),
  description: z.string(),
  required: z.boolean(),
  /** Kept in the secret store, masked everywhere, never on a command line. */
  sensitive: z.boolean(),
  /** A list of values (directories, files or strings). */
  multiple: z.boolean(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** The manifest's default, with `${HOME}` and the other folder variables filled in. */
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
});
export type BundleField = z.infer<typeof BundleFieldSchema>;

/** What the person entered for a bundle's settings, by key. */
export const BundleValuesSchema = z.record(
  z.string().max(200),
  z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(100_000)).max(200)]),
);
export type BundleValues = z.infer<typeof BundleValuesSchema>;

export const BundleSignatureSchema = z.object({
  /** `signed`: a certificate this system trusts; `self-signed`: trusted but its own issuer; `unsigned`: no signature. */
  status: z.enum(['signed', 'self-signed', 'unsigned']),
  publisher: z.string().optional(),
  issuer: z.string().optional(),
  validFrom: z.string().optional(),
  validTo: z.string().optional(),
  fingerprint: z.string().optional(),
});
export type BundleSignature = z.infer<typeof BundleSignatureSchema>;

const NamedEntrySchema = z.object({ name: z.string(), description: z.string().optional() });

export const BundleManifestViewSchema = z.object({
  manifestVersion: z.string(),
  name: z.string(),
  displayName: z.string().optional(),
  version: z.string(),
  description: z.string(),
  longDescription: z.string().optional(),
  author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }),
  homepage: z.string().optional(),
  repository: z.string().optional(),
  license: z.string().optional(),
  serverType: z.enum(['node', 'python', 'binary', 'uv']),
  entryPoint: z.string(),
  tools: z.array(NamedEntrySchema),
  /** The server makes up more tools at run time than the manifest lists. */
  toolsGenerated: z.boolean(),
  prompts: z.array(NamedEntrySchema),
  promptsGenerated: z.boolean(),
  keywords: z.array(z.string()),
});
export type BundleManifestView = z.infer<typeof BundleManifestViewSchema>;

/** A bundle opened, validated and extracted into staging: what the panel shows before anything is installed. */
export const BundleInspectionSchema = z.object({
  /** Names this staged bundle in `bundles.review`/`install`/`discard`. */
  stageId: z.string(),
  fileName: z.string().optional(),
  manifest: BundleManifestViewSchema,
  fields: z.array(BundleFieldSchema),
  signature: BundleSignatureSchema,
  /** What the archive unpacked to. */
  files: z.object({ count: z.number().int(), bytes: z.number().int() }),
  /** A free Berth server name for it (the person may change it). */
  suggestedName: z.string(),
  /** Servers already installed from a bundle of this name, with their version. */
  installed: z.array(z.object({ server: z.string(), version: z.string() })),
});
export type BundleInspection = z.infer<typeof BundleInspectionSchema>;

/** Why one setting cannot be used as entered: the English, and the same as a code the renderer words (bundle-errors). */
export const BundleProblemSchema = z.object({
  field: z.string(),
  message: z.string(),
  hostMessage: HostMessageSchema.optional(),
});
export type BundleProblem = z.infer<typeof BundleProblemSchema>;

/** Exactly what installing would run: the same review an import shows. */
export const BundleReviewSchema = z.object({
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  /** Values built from sensitive settings are SECRET_MASK. */
  env: z.record(z.string(), z.string()),
  secretEnvKeys: z.array(z.string()),
  /** Where the bundle will live: `${__dirname}`. */
  installPath: z.string(),
  /** The absolute file the command runs, when found. */
  resolvedCommand: z.string().optional(),
  /** Is what the server type needs there (Node for node bundles, Python or uv, the bundle's own executable)? */
  runtime: z.object({ ok: z.boolean(), message: z.string() }),
  warnings: z.array(ImportWarningSchema),
  /** Settings still missing or invalid: install refuses until there are none. */
  problems: z.array(BundleProblemSchema),
});
export type BundleReview = z.infer<typeof BundleReviewSchema>;

const StageIdSchema = z.string().regex(/^[a-f0-9]{32}$/, 'Open the bundle again');
const BundleTarget = z
  .object({ stageId: StageIdSchema, name: ServerNameSchema, values: BundleValuesSchema.default({}) })
  .strict();

export const BundleSourceSchema = z.discriminatedUnion('kind', [
  /** A file on the host's machine (Electron's file dialog, tests). */
  z.object({ kind: z.literal('path'), path: z.string().trim().min(1, 'Choose a .mcpb file').max(4_096) }).strict(),
  /** Bytes the renderer sent with `bundles.upload` (a dropped or picked file). */
  z
    .object({
      kind: z.literal('upload'),
      uploadId: z.string().regex(/^[a-f0-9]{32}$/),
      fileName: z.string().max(500).optional(),
    })
    .strict(),
]);
export type BundleSource = z.infer<typeof BundleSourceSchema>;

export const bundlesMethods = {
  'bundles.upload': method({
    summary:
      "Send a dropped or picked .mcpb file's bytes to the host, in chunks (base64); the first chunk starts an upload.",
    input: z
      .object({
        uploadId: z
          .string()
          .regex(/^[a-f0-9]{32}$/)
          .optional(),
        data: z
          .string()
          .max(MAX_UPLOAD_CHUNK_CHARS, 'Send the file in chunks of at most 4 MiB')
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The chunk is not base64'),
      })
      .strict(),
    output: z.object({ uploadId: z.string(), size: z.number().int() }),
  }),
  'bundles.inspect': method({
    summary:
      'Open a .mcpb: read and validate its manifest, check its signature, extract it safely into staging; nothing runs.',
    input: z.object({ source: BundleSourceSchema }).strict(),
    output: BundleInspectionSchema,
  }),
  'bundles.review': method({
    summary:
      'The exact command, arguments and environment installing a staged bundle with these settings would run, and whether its runtime is there.',
    input: BundleTarget,
    output: BundleReviewSchema,
  }),
  'bundles.install': method({
    summary:
      'Install a reviewed bundle: move it into place, store sensitive settings as secrets, add the server and start it.',
    input: BundleTarget.extend({ sandbox: SandboxChoiceSchema.optional(), confirmed: ConfirmedRisksSchema }),
    output: ServerStateSchema,
  }),
  'bundles.discard': method({
    summary: 'Forget a staged bundle that was not installed.',
    input: z.object({ stageId: StageIdSchema }).strict(),
    output: z.object({ discarded: z.boolean() }),
  }),
  'bundles.uninstall': method({
    summary: "Remove a server installed from a bundle: its config, its secrets and the bundle's folder.",
    input: z.object({ name: ServerNameSchema }).strict(),
    output: z.object({ removed: z.string() }),
  }),
};
