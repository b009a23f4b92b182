import { z } from 'zod';
import { ConfigProblemSchema } from '../domain/config';
import { HostMessageSchema } from '../domain/host-message';
import { ServerNameSchema } from '../domain/server';
import { method } from './define';

/** The foreign files Berth imports: Claude Desktop, Cursor, a project's `.mcp.json` (Claude Code), VS Code's `mcp.json`. */
export const ForeignFormatSchema = z.enum(['claude-desktop', 'cursor', 'claude-code', 'vscode']);
export type ForeignFormat = z.infer<typeof ForeignFormatSchema>;

/** Where each app keeps its servers; the project ones exist only for a chosen project folder. */
export const ForeignLocationIdSchema = z.enum([
  'claude-desktop',
  'cursor',
  'vscode-user',
  'claude-code-project',
  'vscode-workspace',
]);
export type ForeignLocationId = z.infer<typeof ForeignLocationIdSchema>;

/** One place another app keeps its MCP servers, and whether there is a file. */
export const ForeignLocationSchema = z.object({
  id: ForeignLocationIdSchema,
  label: z.string(),
  format: ForeignFormatSchema,
  path: z.string(),
  exists: z.boolean(),
  /** Why an existing path cannot be read (e.g. it is a folder, permission denied). */
  problem: z.string().optional(),
  /** `problem` as a code (shared/domain/config-errors.ts), for the renderer to word. */
  problemMessage: HostMessageSchema.optional(),
});
export type ForeignLocation = z.infer<typeof ForeignLocationSchema>;

const ProjectFolderSchema = z.string().trim().min(1, 'Enter a folder path').max(4_096, 'That path is too long');

/** What to read: a detected file (by id, so the renderer cannot name arbitrary files) or pasted text. */
export const ImportSourceSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('location'), id: ForeignLocationIdSchema, projectFolder: ProjectFolderSchema.optional() })
    .strict(),
  z
    .object({
      kind: z.literal('text'),
      format: ForeignFormatSchema,
      text: z.string().max(2_000_000, 'That text is too long for a config file'),
    })
    .strict(),
]);
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/** A VS Code `inputs` entry the person answers before importing. A password input's default is never sent. */
export const ImportInputSchema = z.object({
  id: z.string(),
  type: z.enum(['promptString', 'pickString']),
  description: z.string(),
  password: z.boolean(),
  options: z.array(z.string()).optional(),
  default: z.string().optional(),
  /** The file gives a default (for password inputs: without showing it). */
  hasDefault: z.boolean(),
});
export type ImportInput = z.infer<typeof ImportInputSchema>;

/** Why a candidate looks like a server Berth already has. */
export const DuplicateMatchSchema = z.object({
  name: z.string(),
  reason: z.enum(['same-name', 'same-command']),
  message: z.string(),
  /** `message` as a code (shared/domain/config-import-errors.ts), for the renderer to word. */
  hostMessage: HostMessageSchema.optional(),
});

/** The keys of the warnings the person confirmed in a review (`confirm: true` ones); the host refuses while one is missing. */
export const ConfirmedRisksSchema = z.array(z.string().max(2_000)).max(200).optional();

/** Something about what an imported server would run that the person should look at before turning it on. */
export const ImportWarningSchema = z.object({
  /**
   * `env`: a variable that loads other code (NODE_OPTIONS, LD_PRELOAD, PATH…); `docker`: a `docker run` option that
   * opens the container (`-v /:/host`, `--privileged`…); `address`: a remote on this computer, its network or a
   * metadata service; `command`: where the command resolves.
   */
  kind: z.enum(['env', 'docker', 'address', 'command']),
  /** The env key, for `env`; `docker:<option>`, `address:<host>`: what `confirmed` names. */
  key: z.string().optional(),
  message: z.string(),
  /** It needs its own yes: the install or import is refused until `confirmed` names its key. */
  confirm: z.boolean().optional(),
});
export type ImportWarning = z.infer<typeof ImportWarningSchema>;

/** One server of the foreign file as the preview shows it. Secret env values are masked, header values left out. */
export const ImportCandidateViewSchema = z.object({
  /** The key in the foreign file: what `configImport.apply` selects by. */
  sourceName: z.string(),
  /** A valid Berth name not taken by another server (the person may change it). */
  name: z.string(),
  kind: z.enum(['stdio', 'remote']),
  command: z.string().optional(),
  /** stdio: the absolute file the command runs, resolved with the PATH servers start with (and the config's own PATH and cwd). */
  resolvedCommand: z.string().optional(),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  /** Values of secret keys are SECRET_MASK. */
  env: z.record(z.string(), z.string()).optional(),
  secretEnvKeys: z.array(z.string()),
  url: z.string().optional(),
  headerNames: z.array(z.string()).optional(),
  /** Why it cannot be imported (yet). */
  unsupported: z.string().optional(),
  requiredInputs: z.array(z.string()),
  /** A string uses `${workspaceFolder}`: a project folder is needed. */
  usesWorkspaceFolder: z.boolean(),
  duplicateOf: DuplicateMatchSchema.optional(),
  /** What to look at before turning the server on (imported servers are added turned off). */
  warnings: z.array(ImportWarningSchema),
});
export type ImportCandidateView = z.infer<typeof ImportCandidateViewSchema>;

export const ImportPreviewSchema = z.object({
  format: ForeignFormatSchema,
  /** The file read, for a location source. */
  path: z.string().optional(),
  servers: z.array(ImportCandidateViewSchema),
  inputs: z.array(ImportInputSchema),
  /** A malformed file gives problems (with line and column) and no servers. */
  problems: z.array(ConfigProblemSchema),
  /** The project folder `${workspaceFolder}` stands for, when the source is a project file. */
  workspaceFolder: z.string().optional(),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

/** Why one selected candidate cannot be imported; nothing is written when there is any. */
export const ImportFailureSchema = z.object({
  sourceName: z.string(),
  message: z.string(),
  /** e.g. `name`, `inputs.github-token`, `args.2`. */
  field: z.string().optional(),
  /** `message` as a code (shared/domain/config-import-errors.ts), for the renderer to word. */
  hostMessage: HostMessageSchema.optional(),
});
export type ImportFailure = z.infer<typeof ImportFailureSchema>;

export const ImportOutcomeSchema = z.discriminatedUnion('imported', [
  z.object({ imported: z.literal(true), added: z.array(z.string()) }),
  z.object({ imported: z.literal(false), failures: z.array(ImportFailureSchema) }),
]);
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>;

export const ClaudeDesktopExportSchema = z.object({
  text: z.string(),
  fileName: z.string(),
  serverCount: z.number().int(),
  /** Env values left out because they are (or look) secret. */
  omittedSecrets: z.array(z.object({ server: z.string(), key: z.string() })),
});
export type ClaudeDesktopExport = z.infer<typeof ClaudeDesktopExportSchema>;

export const configImportMethods = {
  'configImport.locations': method({
    summary: 'Where Claude Desktop, Cursor, VS Code (and a project) keep their MCP servers, and which files exist.',
    input: z.object({ projectFolder: ProjectFolderSchema.optional() }).strict(),
    output: z.object({ locations: z.array(ForeignLocationSchema) }),
  }),
  'configImport.preview': method({
    summary: 'Read a foreign config: its servers (duplicates marked), the inputs to answer, and its problems.',
    input: z.object({ source: ImportSourceSchema }).strict(),
    output: ImportPreviewSchema,
  }),
  'configImport.apply': method({
    summary:
      'Add the selected servers of a foreign config, all or none, turned off until the person turns each on; password inputs become secret env values.',
    input: z
      .object({
        source: ImportSourceSchema,
        servers: z
          .array(
            z
              .object({
                sourceName: z.string().min(1).max(500),
                name: ServerNameSchema,
                confirmed: ConfirmedRisksSchema,
              })
              .strict(),
          )
          .min(1, 'Select at least one server to import')
          .max(500),
        answers: z.record(z.string().max(500), z.string().max(100_000)).default({}),
        workspaceFolder: ProjectFolderSchema.optional(),
        /** Run the imported local servers in the OS sandbox (they are added turned off, so it applies from their first start). */
        sandbox: z.boolean().optional(),
      })
      .strict(),
    output: ImportOutcomeSchema,
  }),
  'configImport.export': method({
    summary: "Berth's servers as a Claude Desktop config, secret values left out.",
    input: z.object({}).strict(),
    output: ClaudeDesktopExportSchema,
  }),
};
