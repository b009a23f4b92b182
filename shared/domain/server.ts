import { z } from 'zod';
import { HostMessageSchema } from './host-message';

/** Names appear in the UI, in logs and (later) in tool names sent to the model. */
export const ServerNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the server a name')
  .max(64, 'Keep the name under 64 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]*$/,
    'Use letters, digits, spaces, dot, dash or underscore, starting with a letter or digit',
  );

export const EnvKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Environment variable names use letters, digits and _');

export const TimeoutsSchema = z.object({
  /** Time allowed for spawn + handshake, in ms. */
  startupMs: z.number().int().min(1_000).max(600_000).default(30_000),
  /** Default per-request timeout, in ms (reset on progress where supported). */
  requestMs: z.number().int().min(1_000).max(3_600_000).default(60_000),
  /** A call that keeps reporting progress (which resets requestMs) still ends after this long, in ms. */
  maxTotalMs: z.number().int().min(1_000).max(86_400_000).default(600_000),
});

export const RestartPolicySchema = z.object({
  /** Restart automatically after a crash. */
  enabled: z.boolean().default(true),
  /** Give up after this many consecutive failed restarts. */
  maxRestarts: z.number().int().min(0).max(100).default(5),
  /** First backoff delay; doubles each time up to maxDelayMs. */
  initialDelayMs: z.number().int().min(100).max(60_000).default(1_000),
  maxDelayMs: z.number().int().min(1_000).max(600_000).default(30_000),
});

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;

export const HTTP_TRANSPORT_TYPES = ['http', 'sse'] as const;
/** `http` is Streamable HTTP; `sse` is the legacy HTTP+SSE transport (2024-11-05). */
export const HttpTransportTypeSchema = z.enum(HTTP_TRANSPORT_TYPES);

/** How a connection actually talks to its server, shown to the person. */
export const TransportKindSchema = z.enum(['stdio', 'streamable-http', 'sse']);
export type TransportKind = z.infer<typeof TransportKindSchema>;

/** HTTP header names: RFC 9110 token characters. */
export const HeaderNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Header names use letters, digits and - (no spaces or colons)');

/** Headers whose values are always treated as secrets, whatever `secretHeaders` says. */
export const ALWAYS_SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
]);

/** Remote servers: http(s) only; plain http only to this machine (a token sent in clear over a network is not acceptable). */
export const ServerUrlSchema = z
  .string()
  .trim()
  .min(1, "Enter the server's address")
  .refine((text) => URL.canParse(text), 'Enter a full address such as https://example.com/mcp')
  .refine(
    (text) => !URL.canParse(text) || ['http:', 'https:'].includes(new URL(text).protocol),
    'The address must start with https:// (or http:// for a server on this machine)',
  )
  .refine((text) => {
    if (!URL.canParse(text)) return true;
    const url = new URL(text);
    return (
      url.protocol === 'https:' ||
      url.protocol !== 'http:' ||
      ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
    );
  }, 'Use https:// for a server on another machine (plain http:// is only allowed for localhost)');

/** How Berth gets a remote server's OAuth tokens. */
export const OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'jwt_bearer'] as const;
export const OAuthGrantSchema = z.enum(OAUTH_GRANTS);
export type OAuthGrant = z.infer<typeof OAuthGrantSchema>;

/** The fields of `oauth` whose values are secrets: kept in the secret store, masked, redacted, never exported. */
export const OAUTH_SECRET_FIELDS = ['clientSecret', 'privateKey'] as const;
export type OAuthSecretField = (typeof OAUTH_SECRET_FIELDS)[number];

/** Signing algorithms for a private_key_jwt client assertion (RFC 7523). */
export const CLIENT_ASSERTION_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/**
 * A remote server's OAuth client settings, all optional: without them Berth
 * registers itself with the authorization server (or uses a client ID
 * metadata document) and the person signs in through the browser. Strings
 * only, like `env` and `headers`, so a secret value can be a `${secret:…}`
 * reference.
 */
export const OAuthSettingsSchema = z
  .object({
    /**
     * `authorization_code` (default): a person signs in. `client_credentials`: Berth authenticates as the client itself, with no
     * person (machine to machine). `jwt_bearer`: workload identity (RFC 7523 JWT-bearer grant), a token the platform issues to this machine.
     */
    grant: OAuthGrantSchema.optional(),
    /** A client registered by hand with the authorization server (instead of dynamic registration). */
    clientId: z
      .string()
      .trim()
      .min(1, 'Enter the client ID, or leave it empty to let Berth register itself')
      .max(2_000)
      .optional(),
    /** The registered client's secret (confidential clients). Secret. */
    clientSecret: z.string().min(1).optional(),
    /** client_credentials with private_key_jwt: the client's private key, PEM. Secret. */
    privateKey: z.string().min(1).optional(),
    /** jwt_bearer: the file holding the workload's identity token (a JWT), read again for every token request, as platforms rotate it. */
    assertionFile: z.string().trim().min(1).max(4_096).optional(),
    /** The private key's signing algorithm; unset: RS256 for an RSA key, ES256 for an EC key, EdDSA for Ed25519. */
    signingAlgorithm: z.enum(CLIENT_ASSERTION_ALGORITHMS).optional(),
    /** The authorization server the client ID belongs to (its issuer URL): Berth then sends the client's credentials to no other. */
    issuer: z
      .string()
      .trim()
      .refine(
        (text) =>
          (URL.canParse(text) && new URL(text).protocol === 'https:') ||
          /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(text),
        "Enter the authorization server's issuer URL, e.g. https://auth.example.com",
      )
      .optional(),
    /** Scopes to ask for when the server's metadata names none (space-separated). */
    scope: z.string().trim().min(1).max(2_000).optional(),
  })
  .strict();
export type OAuthSettings = z.infer<typeof OAuthSettingsSchema>;

/**
 * Where an installed server came from: the registry, the server.json name and
 * version, which of its packages/remotes, and the person's non-secret answers
 * (secret ones are `${secret:…}` references in `env`/`headers`), so an update
 * can rebuild the same config for a newer version.
 */
export const InstalledFromSchema = z
  .object({
    url: z.string().max(2_000),
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(255),
    option: z.number().int().min(0).max(100).default(0),
    values: z.record(z.string().max(500), z.string().max(100_000)).default({}),
  })
  .strict();
export type InstalledFrom = z.infer<typeof InstalledFromSchema>;

/**
 * One server entry, compatible with Claude Desktop's `mcpServers` values
 * (`command`, `args`, `env`, `cwd`; or `url` with `type` and `headers` as in
 * Cursor and VS Code) plus Berth's own optional fields. Exactly one of
 * `command` (a local process over stdio) and `url` (a remote server) is set.
 */
export const ServerConfigSchema = z
  .object({
    command: z.string().trim().min(1, 'Enter the command that starts the server (e.g. npx)').optional(),
    args: z.array(z.string()).default([]),
    env: z.record(EnvKeySchema, z.string()).default({}),
    cwd: z.string().min(1).optional(),
    /** Remote servers: the MCP endpoint. */
    url: ServerUrlSchema.optional(),
    /** Remote servers: the transport; unset means Streamable HTTP with a fallback to legacy SSE. */
    type: HttpTransportTypeSchema.optional(),
    /** Remote servers: sent with every request. */
    headers: z.record(HeaderNameSchema, z.string()).default({}),
    /** Berth: header names whose values are secrets (besides ALWAYS_SECRET_HEADERS). */
    secretHeaders: z.array(HeaderNameSchema).default([]),
    /** Remote servers: how Berth signs in (OAuth client settings); unset: dynamic registration and a browser sign-in. */
    oauth: OAuthSettingsSchema.optional(),
    /** Berth: start this server with the app. */
    enabled: z.boolean().default(true),
    /** Berth: env keys whose values are secrets (masked in the UI, redacted in logs). */
    secretEnv: z.array(EnvKeySchema).default([]),
    timeouts: TimeoutsSchema.default({ startupMs: 30_000, requestMs: 60_000, maxTotalMs: 600_000 }),
    restart: RestartPolicySchema.default({ enabled: true, maxRestarts: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 }),
    /** Berth: level requested with logging/setLevel once the server is ready. */
    logLevel: LogLevelSchema.optional(),
    /** Berth: installed from an MCP registry (app/registry/): where from, and what to rebuild an update with. */
    registry: InstalledFromSchema.optional(),
    /** Berth: installed from an MCP Bundle (.mcpb): which bundle and version, and the folder it was unpacked into (removed on uninstall). */
    bundle: z
      .object({
        name: z.string().min(1).max(200),
        version: z.string().min(1).max(100),
        path: z.string().min(1).max(4_096),
      })
      .strict()
      .optional(),
  })
  .superRefine(
    (config, ctx) => {
      if (config.command === undefined && config.url === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['command'],
          message:
            '"command" is missing: enter the command that starts the server (e.g. npx), or a "url" for a remote server',
        });
      }
      if (config.command !== undefined && config.url !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message: 'A server has either a command (local) or a url (remote), not both',
        });
      }
      // Runs on invalid input too (see `when`): never assume a field's type here.
      if (config.url === undefined && config.type !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['type'],
          message: typeof config.type === 'string' ? `"type": "${config.type}" needs a url` : '"type" needs a url',
        });
      }
      checkOAuthSettings(config, ctx);
    },
    // Also when other fields are invalid, so a file's every problem is reported at once (but only for an object).
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) },
  );
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
/** The cross-field rules of `oauth`; like the rest of the superRefine, never assumes a field's type (it runs on invalid input too). */
function checkOAuthSettings(config: { url?: unknown; headers?: unknown; oauth?: unknown }, ctx: z.RefinementCtx): void {
  const oauth = config.oauth;
  if (typeof oauth !== 'object' || oauth === null) return;
  const settings = oauth as Partial<Record<keyof OAuthSettings, unknown>>;
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: ['oauth', field], message });
  if (config.url === undefined) issue('grant', 'OAuth settings are for remote servers: this server has no url');
  const headers = typeof config.headers === 'object' && config.headers !== null ? Object.keys(config.headers) : [];
  if (headers.some((name) => name.toLowerCase() === 'authorization')) {
    issue(
      'grant',
      'The Authorization header is set by hand: remove it, or remove the OAuth settings (Berth would not use them)',
    );
  }
  if (settings.grant === 'client_credentials') {
    if (settings.clientId === undefined)
      issue('clientId', 'Client credentials need the client ID the authorization server issued');
    if (settings.clientSecret === undefined && settings.privateKey === undefined)
      issue('clientSecret', 'Client credentials need a client secret or a private key');
  } else if (settings.privateKey !== undefined) {
    issue('privateKey', 'A private key is only used with client credentials');
  }
  if (settings.grant === 'jwt_bearer') {
    if (settings.clientId === undefined)
      issue('clientId', 'Workload identity needs the client ID the authorization server knows this workload by');
    if (settings.assertionFile === undefined)
      issue('assertionFile', 'Workload identity needs the file that holds the identity token');
  } else if (settings.assertionFile !== undefined) {
    issue('assertionFile', 'A token file is only used with workload identity');
  }
  if (settings.clientSecret !== undefined && settings.privateKey !== undefined)
    issue('privateKey', 'Give either a client secret or a private key, not both');
  if (settings.clientSecret !== undefined && settings.clientId === undefined)
    issue('clientId', 'A client secret needs the client ID it belongs to');
  if (settings.issuer !== undefined && settings.clientId === undefined)
    issue('issuer', 'The authorization server is only pinned for a client ID you entered');
  if (settings.signingAlgorithm !== undefined && settings.privateKey === undefined)
    issue('signingAlgorithm', 'A signing algorithm is only used with a private key');
}

/** The OAuth grant a remote server uses (authorization_code unless set). */
export function oauthGrant(config: Pick<ServerConfig, 'oauth'>): OAuthGrant {
  return config.oauth?.grant ?? 'authorization_code';
}

/** The person set the Authorization header themselves: that header is the credential, and Berth does no OAuth. */
export function hasOwnAuthorization(config: Pick<ServerConfig, 'headers'>): boolean {
  return Object.keys(config.headers).some((name) => name.toLowerCase() === 'authorization');
}

/**
 * A remote server a person signs in to (Sign in / Sign out, a sign-in
 * state): OAuth without an Authorization header of their own, and not a
 * grant with no person (client credentials, workload identity).
 */
export function personSignsIn(config: Pick<ServerConfig, 'url' | 'headers' | 'oauth'>): boolean {
  return config.url !== undefined && !hasOwnAuthorization(config) && oauthGrant(config) === 'authorization_code';
}

/** What a person types into the form: every Berth field optional. */
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;

/** Whether a header's value is a secret (masked, redacted, never exported). */
export function isSecretHeader(config: Pick<ServerConfig, 'secretHeaders'>, name: string): boolean {
  const lower = name.toLowerCase();
  return ALWAYS_SECRET_HEADERS.has(lower) || config.secretHeaders.some((header) => header.toLowerCase() === lower);
}

/** The masked value shown instead of a secret env value. */
export const SECRET_MASK = '••••••••';

export const SERVER_STATUSES = ['stopped', 'starting', 'ready', 'error', 'restarting', 'crashed'] as const;
export const ServerStatusSchema = z.enum(SERVER_STATUSES);
export type ServerStatus = z.infer<typeof ServerStatusSchema>;

export const ProtocolEraSchema = z.enum(['legacy', 'modern']);
export type ProtocolEra = z.infer<typeof ProtocolEraSchema>;

/** A tool as listed by a server (kept close to the MCP shape, loosely typed where servers vary). */
export const ToolInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  /** The server's own claims about the tool: untrusted. */
  annotations: z.record(z.string(), z.unknown()).optional(),
  /**
   * Set when Berth renamed this tool because an earlier tool of the same server has its name (`search` listed twice:
   * the second is `search_2`, shared/domain/tool-twins.ts): the name the server listed, under which calls reach it.
   */
  listedName: z.string().optional(),
  /** How many more times the server listed this very tool (same definition, same name): Berth keeps one. */
  repeats: z.number().int().positive().optional(),
  /** How the tool may run: `taskSupport` says whether it runs as an MCP task (2025-11-25 tasks; absent means `forbidden`). */
  execution: z.object({ taskSupport: z.enum(['forbidden', 'optional', 'required']).optional() }).optional(),
  /**
   * MCP Apps (`_meta.ui`, read by shared/apps/tool-ui.ts): the `ui://` resource the tool's card renders, and who may
   * call it (absent: the model and apps). Only what Berth understood: a malformed value is left out.
   */
  ui: z
    .object({
      resourceUri: z.string().optional(),
      visibility: z.array(z.enum(['model', 'app'])).optional(),
    })
    .optional(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

export const ServerInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
});

/**
 * OAuth sign-in, for remote servers Berth signs in to. Facts about the
 * sign-in only: strict, so a token can never ride along to the renderer.
 */
export const ServerAuthSchema = z
  .object({
    /** `needs-sign-in`: the server refused Berth until the person signs in (its status stays `error`). */
    state: z.enum(['needs-sign-in', 'signed-in']),
    /** Signed in: the epoch ms the access token expires, when the authorization server said. */
    expiresAt: z.number().optional(),
    /** Signed in: a refresh token is stored, so an expired access token is renewed without the person. */
    renews: z.boolean().optional(),
  })
  .strict();
export type ServerAuth = z.infer<typeof ServerAuthSchema>;

/** What is known of a server whatever its status. */
const serverCommonShape = {
  name: z.string(),
  config: ServerConfigSchema,
  /** Consecutive automatic restarts since the last healthy run. */
  restartCount: z.number().int(),
  /** The level last requested with logging/setLevel, if any. */
  logLevel: LogLevelSchema.optional(),
  /** Remote servers Berth signs in to (OAuth): whether it is signed in. Unset when unknown or not applicable. */
  auth: ServerAuthSchema.optional(),
};

/**
 * Everything the renderer may know about one server, secrets masked: one
 * variant per status (as VS Code's McpConnectionState), each carrying only
 * what means something in that status, so a reader narrows on `status`
 * instead of guessing from optional fields. Strict: a field that does not
 * belong to its status is refused.
 */
const ServerStateUnionSchema = z.discriminatedUnion('status', [
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('stopped'),
    /** Why it stopped (`stopped` by the person, `config changed`…); unset for a server not started yet. */
    reason: z.string().optional(),
    /** The reason as a code (shared/domain/server-state-reasons.ts); `reason` is its English fallback. */
    reasonMessage: HostMessageSchema.optional(),
  }),
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('starting'),
    /** stdio: the process, once spawned. */
    pid: z.number().int().optional(),
  }),
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('ready'),
    /** stdio: the server's process. */
    pid: z.number().int().optional(),
    protocolVersion: z.string().optional(),
    era: ProtocolEraSchema.optional(),
    serverInfo: ServerInfoSchema.optional(),
    capabilities: z.record(z.string(), z.unknown()).optional(),
    instructions: z.string().optional(),
    tools: z.array(ToolInfoSchema),
    /** Epoch ms when the server became ready: a new value is a new connection. */
    readySince: z.number(),
    /** How the live connection talks to the server (remote servers: which HTTP transport was negotiated). */
    transport: TransportKindSchema,
  }),
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('error'),
    /** What went wrong, in words a person understands (nothing runs; no restart is scheduled). */
    reason: z.string(),
    /** The reason as a code, for the renderer to word in the person's language; `reason` is its English fallback. */
    reasonMessage: HostMessageSchema.optional(),
  }),
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('crashed'),
    /** What ended it, and why it is not restarted (policy off or given up). */
    reason: z.string(),
    /** The reason as a code, when Berth has one for it; `reason` is its English fallback. */
    reasonMessage: HostMessageSchema.optional(),
  }),
  z.strictObject({
    ...serverCommonShape,
    status: z.literal('restarting'),
    /** What ended the last run. */
    reason: z.string(),
    /** The reason as a code, when Berth has one for it; `reason` is its English fallback. */
    reasonMessage: HostMessageSchema.optional(),
    /** The epoch ms of the next attempt. */
    nextRestartAt: z.number(),
  }),
]);
type ServerStateVariant = z.infer<typeof ServerStateUnionSchema>;
type KeysOfAny<T> = T extends unknown ? keyof T : never;
/**
 * One of the variants; a field of another status is typed as never set, so
 * it reads as `undefined` without narrowing but can never be written into
 * the wrong status. Narrow on `status` to get the fields of one.
 */
export type ServerState = Exclusive<ServerStateVariant>;
type Exclusive<T, All = T> = T extends unknown ? T & { [K in Exclude<KeysOfAny<All>, keyof T>]?: never } : never;
/** The union, typed as ServerState for its readers (see there). */
export const ServerStateSchema: z.ZodType<ServerState, z.input<typeof ServerStateUnionSchema>> = ServerStateUnionSchema;
/** A server's state in one status: `ServerStateOf<'ready'>`. */
export type ServerStateOf<S extends ServerStatus> = Extract<ServerState, { status: S }>;
/** The fields of a state that do not depend on its status. */
export type ServerCommon = Pick<ServerState, keyof typeof serverCommonShape>;
/** The status and what belongs to it: a state without its common fields. */
export type ServerPhase = ServerState extends infer S
  ? S extends ServerState
    ? Omit<S, keyof ServerCommon>
    : never
  : never;
