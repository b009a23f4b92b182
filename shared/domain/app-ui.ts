import { z } from 'zod';
import { McpContentBlockSchema } from './chat';

// MCP Apps (the `io.modelcontextprotocol/ui` extension, spec 2026-01-26) as
// Berth carries them between host and renderer. Every value here came from a
// server: it is the server's word, bounded in size, and never trusted to
// widen what the sandbox allows beyond what the person agreed to.

/** The only MIME type Berth renders as an app (advertised in the client's capabilities). */
export const APP_UI_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's key under `capabilities.extensions`. */
export const APP_UI_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** Bigger UI resources are refused with a clear error (the card shows the text result). */
export const MAX_APP_HTML_BYTES = 5 * 1024 * 1024;

const DomainListSchema = z.array(z.string().min(1).max(500)).max(50);

/** `_meta.ui.csp` of a UI resource: origins the app may reach. Absent lists mean none (no network). */
export const AppUiCspSchema = z.object({
  connectDomains: DomainListSchema.optional(),
  resourceDomains: DomainListSchema.optional(),
  frameDomains: DomainListSchema.optional(),
  baseUriDomains: DomainListSchema.optional(),
});
export type AppUiCsp = z.infer<typeof AppUiCspSchema>;

export const APP_UI_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export const AppUiPermissionSchema = z.enum(APP_UI_PERMISSIONS);
export type AppUiPermission = z.infer<typeof AppUiPermissionSchema>;

/** A UI resource as read from its server (cached per server and URI; refreshed on resources/list_changed). */
export const AppUiResourceSchema = z.object({
  server: z.string(),
  uri: z.string().min(1).max(2000),
  html: z.string(),
  csp: AppUiCspSchema,
  /** What the resource declares it needs (`_meta.ui.permissions`); each is still denied until the person allows it. */
  permissions: z.array(AppUiPermissionSchema),
  prefersBorder: z.boolean().optional(),
  /** Epoch ms when Berth read it from the server. */
  fetchedAt: z.number(),
});
export type AppUiResource = z.infer<typeof AppUiResourceSchema>;

/** Who may see a tool (`_meta.ui.visibility`; absent: both). App-only tools are never offered to the model. */
export const AppToolVisibilitySchema = z.array(z.enum(['model', 'app']));

export { ToolAppRefSchema, type ToolAppRef } from './chat';

/** One entry of a server's "Apps" list: a tool with a UI resource. */
export const ServerAppSchema = z.object({
  tool: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  resourceUri: z.string(),
  visibility: AppToolVisibilitySchema,
  inputSchema: z.record(z.string(), z.unknown()),
});
export type ServerApp = z.infer<typeof ServerAppSchema>;

/** Where an app's request came from: the card of one tool call in one conversation (or a preview in the server's Apps list). */
export const AppOriginSchema = z.object({
  server: z.string().min(1).max(200),
  conversationId: z.string().max(200).optional(),
  toolUseId: z.string().max(200).optional(),
});
export type AppOrigin = z.infer<typeof AppOriginSchema>;

/** What an app asked to add to the model's context (`ui/update-model-context`): shown to the person, sent with the next turn. */
export const AppModelContextSchema = z.object({
  conversationId: z.string(),
  toolUseId: z.string(),
  server: z.string(),
  content: z.array(McpContentBlockSchema).max(50),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  /** Epoch ms. */
  updatedAt: z.number(),
});
export type AppModelContext = z.infer<typeof AppModelContextSchema>;
