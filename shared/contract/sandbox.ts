import { z } from 'zod';
import { SANDBOX_LIST_MAX, domainEntryProblem } from '../domain/sandbox';
import type {
  SandboxDenial,
  SandboxPolicy,
  SandboxPolicyWords,
  SandboxServerSettings,
  SandboxSupport,
} from '../domain/sandbox';
import { method } from './define';
import { HostMessageSchema } from '../domain/host-message';

const ServerSchema = z.string().min(1).max(200);
/** An absolute folder; the host checks it further (shared/domain/sandbox.ts `folderEntryProblem`, on its real path). */
const FolderSchema = z.string().trim().min(1, 'Enter a folder').max(4_096, 'That path is too long');
const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((value, ctx) => {
    const problem = domainEntryProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The sandbox chosen in an install or add review, set before the server first
 * starts (so it never runs unsandboxed first). Optional on `servers.add`,
 * `registry.install` and `bundles.install`; absent = the server's setting as
 * it is (off for a new one).
 */
export const SandboxChoiceSchema = z
  .object({
    enabled: z.boolean(),
    allowedFolders: z.array(FolderSchema).max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} folders`).optional(),
    allowedDomains: z.array(DomainSchema).max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} domains`).optional(),
  })
  .strict();
export type SandboxChoice = z.infer<typeof SandboxChoiceSchema>;

export const SandboxSupportSchema = z.object({
  available: z.boolean(),
  platform: z.string(),
  reason: z.string().optional(),
  install: z.string().optional(),
  warnings: z.array(z.string()),
}) satisfies z.ZodType<SandboxSupport>;

/** One server's sandbox setting, with whether it applies at all (HTTP servers run nothing locally). */
export const SandboxServerSettingsSchema = z.object({
  server: z.string(),
  /** False for a remote (HTTP) server: the sandbox does not apply to it. */
  applies: z.boolean(),
  enabled: z.boolean(),
  allowedFolders: z.array(z.string()),
  allowedDomains: z.array(z.string()),
  offered: z.boolean(),
}) satisfies z.ZodType<SandboxServerSettings & { server: string; applies: boolean }>;
export type SandboxServerSettingsView = z.infer<typeof SandboxServerSettingsSchema>;

export const SandboxPolicySchema = z.object({
  allowWrite: z.array(z.string()),
  denyWrite: z.array(z.string()),
  denyRead: z.array(z.string()),
  allowRead: z.array(z.string()),
  allowedDomains: z.array(z.string()),
}) satisfies z.ZodType<SandboxPolicy>;

export const SandboxPolicyWordsSchema = z.object({
  write: z.string(),
  read: z.string(),
  network: z.string(),
  writeFolders: z.array(z.string()),
  closedInside: z.string().optional(),
}) satisfies z.ZodType<SandboxPolicyWords>;

/** The derived policy of one server, as it would apply at its next start. */
export const SandboxPolicyViewSchema = z.object({
  server: z.string(),
  settings: SandboxServerSettingsSchema,
  policy: SandboxPolicySchema,
  words: SandboxPolicyWordsSchema,
});
export type SandboxPolicyView = z.infer<typeof SandboxPolicyViewSchema>;

export const SandboxDenialSchema = z.object({
  server: z.string(),
  kind: z.enum(['read', 'write', 'network']),
  target: z.string(),
  /** `server`: read from its own output, its claim; `proxy`: the sandbox's proxy refused it. */
  source: z.enum(['server', 'proxy']),
  message: z.string(),
  at: z.number(),
  fix: z.union([z.object({ folder: z.string() }).strict(), z.object({ domain: z.string() }).strict()]).optional(),
  noFix: z.string().optional(),
  noFixMessage: HostMessageSchema.optional(),
}) satisfies z.ZodType<SandboxDenial>;

/** The sandbox of local servers (shared/domain/sandbox.ts has the policy and its words). */
export const sandboxMethods = {
  'sandbox.support': method({
    summary: 'Whether this machine can sandbox local servers; if not, why and what to install (Windows: unavailable).',
    input: z.object({}).strict(),
    output: SandboxSupportSchema,
  }),
  'sandbox.serverSettings': method({
    summary: "Every configured server's sandbox setting (never set: off and not offered yet).",
    input: z.object({}).strict(),
    output: z.array(SandboxServerSettingsSchema),
  }),
  'sandbox.setServerSettings': method({
    summary:
      "Changes one server's sandbox setting (the fields given); a running local server restarts when what it may do changed. Turning it on where the sandbox is unavailable is refused (FORBIDDEN, saying why), for an HTTP server too (INVALID_INPUT); so is an added folder `sandbox.allow` would refuse (INVALID_INPUT, saying what it holds). NOT_FOUND for an unknown server.",
    input: z
      .object({
        server: ServerSchema,
        enabled: z.boolean().optional(),
        allowedFolders: z.array(FolderSchema).max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} folders`).optional(),
        allowedDomains: z.array(DomainSchema).max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} domains`).optional(),
        offered: z.boolean().optional(),
      })
      .strict(),
    output: SandboxServerSettingsSchema,
  }),
  'sandbox.policy': method({
    summary:
      "One server's sandbox policy as Berth derives it (its roots, its own folders, the person's folders and domains), in plain words.",
    input: z.object({ server: ServerSchema }).strict(),
    output: SandboxPolicyViewSchema,
  }),
  'sandbox.allow': method({
    summary:
      "Allows one folder (writing) or one domain for a server, from a denial, and restarts it. Refused (FORBIDDEN, saying what the place holds): a folder whose real path is or holds home, is or holds or lies in Berth's config folder, a credentials folder, a startup file or a program-settings folder (~/.config, ~/.local/bin…); a domain on this computer, a private network or a cloud metadata service.",
    input: z
      .object({ server: ServerSchema, folder: FolderSchema.optional(), domain: DomainSchema.optional() })
      .strict()
      .refine((input) => (input.folder === undefined) !== (input.domain === undefined), {
        message: 'Give either a folder or a domain',
        path: ['folder'],
      }),
    output: SandboxServerSettingsSchema,
  }),
  'sandbox.denials': method({
    summary: 'The latest denials of one server since Berth started (newest last, at most 50).',
    input: z.object({ server: ServerSchema }).strict(),
    output: z.array(SandboxDenialSchema),
  }),
};

export const sandboxTopics = {
  /** A sandboxed server was refused a read, a write or a connection. */
  'sandbox.denied': SandboxDenialSchema,
  /** A server's sandbox setting changed (in another window too), or went back to the default when it was removed. */
  'sandbox.serverSettingsChanged': SandboxServerSettingsSchema,
};
