import { z } from 'zod';

/**
 * The registry's answers, checked before anything is shown or built from
 * them. A registry is not trusted (anyone can publish to the official one,
 * and a sub-registry is whoever runs it): every string is bounded and cleaned
 * of control and bidi-override characters, links must be http(s), and an
 * entry that does not fit is skipped rather than half-used. Shapes follow the
 * registry's OpenAPI (v0.1): ServerList, ServerResponse, ServerDetail.
 */

// C0/C1 controls (a newline in a description could forge lines in logs) and the
// bidi overrides that make text read differently from what it is.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A string from the registry with unsafe characters removed. */
export function cleanText(text: string): string {
  return text.replace(UNSAFE_CHARS, '');
}

const text = (max: number) => z.string().max(max).transform(cleanText);

/** Lines of text from the registry: as cleanText, but line breaks kept. */
export function cleanLines(value: string): string {
  return value.replace(/\r\n?/g, '\n').split('\n').map(cleanText).join('\n');
}

const MAX_INSTRUCTIONS = 4_000;

/** An http(s) link without credentials, or undefined (a bad link is dropped, not shown). */
export function safeLink(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2_000 || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol) || url.username !== '' || url.password !== '') return undefined;
  return url.href;
}

const link = z.unknown().transform(safeLink);

const FORMATS = ['string', 'number', 'boolean', 'filepath'] as const;

const InputShape = {
  description: text(2_000).optional(),
  isRequired: z.boolean().optional(),
  // An unknown format is treated as plain text rather than failing the entry.
  format: z.enum(FORMATS).optional().catch(undefined),
  value: text(10_000).optional(),
  isSecret: z.boolean().optional(),
  default: text(10_000).optional(),
  placeholder: text(500).optional(),
  choices: z.array(text(500)).max(100).optional(),
};

export const RegistryInputSchema = z.object(InputShape);
export type RegistryInput = z.infer<typeof RegistryInputSchema>;

const Variables = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .max(100),
    RegistryInputSchema,
  )
  .refine((record) => Object.keys(record).length <= 50, 'too many variables');

const InputWithVariables = { ...InputShape, variables: Variables.optional() };

export const KeyValueInputSchema = z.object({ ...InputWithVariables, name: text(200).pipe(z.string().min(1)) });
export type KeyValueInput = z.infer<typeof KeyValueInputSchema>;

export const ArgumentSchema = z.discriminatedUnion('type', [
  z.object({
    ...InputWithVariables,
    type: z.literal('positional'),
    valueHint: text(200).optional(),
    isRepeated: z.boolean().optional(),
  }),
  z.object({
    ...InputWithVariables,
    type: z.literal('named'),
    name: text(200).pipe(z.string().min(1)),
    isRepeated: z.boolean().optional(),
  }),
]);
export type RegistryArgument = z.infer<typeof ArgumentSchema>;

const TransportSchema = z.object({
  type: text(50),
  url: text(2_000).optional(),
  headers: z.array(KeyValueInputSchema).max(50).optional(),
  variables: Variables.optional(),
});
export type RegistryTransport = z.infer<typeof TransportSchema>;

export const PackageSchema = z.object({
  registryType: text(50),
  registryBaseUrl: link.optional(),
  identifier: text(500),
  version: text(255).optional(),
  runtimeHint: text(50).optional(),
  transport: TransportSchema,
  runtimeArguments: z.array(ArgumentSchema).max(100).optional(),
  packageArguments: z.array(ArgumentSchema).max(100).optional(),
  environmentVariables: z.array(KeyValueInputSchema).max(100).optional(),
});
export type RegistryPackage = z.infer<typeof PackageSchema>;

export const ServerDetailSchema = z.object({
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'not a registry server name'),
  // The schema allows 100 characters; a little room for registries that allow more, none for essays.
  description: text(1_000),
  title: text(200).optional(),
  version: text(255).pipe(z.string().min(1)),
  repository: z
    .object({ url: link, source: text(50).optional(), subfolder: text(500).optional() })
    .optional()
    .catch(undefined),
  websiteUrl: link.optional(),
  /**
   * What the publisher says to do after installing. Not in the server.json
   * schema (some registries add it): shown as text, never run, and cut
   * rather than failing the entry.
   */
  postInstallInstructions: z
    .string()
    .transform((value) =>
      cleanLines(value.length > MAX_INSTRUCTIONS ? `${value.slice(0, MAX_INSTRUCTIONS)}…` : value).trim(),
    )
    .optional()
    .catch(undefined),
  packages: z.array(PackageSchema).max(50).optional(),
  remotes: z.array(TransportSchema).max(50).optional(),
});
export type ServerDetail = z.infer<typeof ServerDetailSchema>;

const OfficialMetaSchema = z.object({
  status: z.enum(['active', 'deprecated', 'deleted']).optional().catch(undefined),
  statusMessage: text(500).optional().catch(undefined),
  publishedAt: text(64).optional().catch(undefined),
  updatedAt: text(64).optional().catch(undefined),
  isLatest: z.boolean().optional().catch(undefined),
});

export const ServerResponseSchema = z.object({
  server: ServerDetailSchema,
  _meta: z
    .object({ 'io.modelcontextprotocol.registry/official': OfficialMetaSchema.optional().catch(undefined) })
    .optional()
    .catch(undefined),
});
export type ServerResponse = z.infer<typeof ServerResponseSchema>;

/** The list's frame: each entry is checked on its own (parseServerList), so one bad entry costs only itself. */
const ServerListFrameSchema = z.object({
  servers: z.array(z.unknown()).max(500),
  metadata: z
    .object({ nextCursor: z.string().max(2_000).nullable().optional(), count: z.number().optional() })
    .optional(),
});

export interface ServerList {
  servers: ServerResponse[];
  nextCursor?: string;
  /** Entries left out because they did not fit the schema. */
  skipped: number;
}

export function parseServerList(body: unknown): ServerList {
  const frame = ServerListFrameSchema.safeParse(body);
  if (!frame.success) throw new Error('the registry answered with something that is not a server list');
  const servers: ServerResponse[] = [];
  let skipped = 0;
  for (const raw of frame.data.servers) {
    const parsed = ServerResponseSchema.safeParse(raw);
    if (parsed.success) servers.push(parsed.data);
    else skipped += 1;
  }
  const cursor = frame.data.metadata?.nextCursor;
  return {
    servers,
    skipped,
    ...(cursor === undefined || cursor === null || cursor === '' ? {} : { nextCursor: cleanText(cursor) }),
  };
}

export function parseServerResponse(body: unknown): ServerResponse {
  const parsed = ServerResponseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the registry's entry does not fit the server.json schema (${issue === undefined ? 'unknown problem' : `${issue.path.join('.') || 'entry'}: ${issue.message}`})`,
    );
  }
  return parsed.data;
}
