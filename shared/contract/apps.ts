import { z } from 'zod';
import { McpContentBlockSchema } from '../domain/chat';
import { AppModelContextSchema, AppOriginSchema, AppUiResourceSchema, ServerAppSchema } from '../domain/app-ui';
import { LogLevelSchema } from '../domain/server';
import { method } from './define';

const ServerSchema = z.string().min(1).max(200);
const UiUriSchema = z
  .string()
  .min(1)
  .max(2000)
  .regex(/^ui:\/\//, 'a UI resource URI starts with ui://');

const AppInstanceSchema = z.string().min(1).max(100);
/** One tool call of one running app, as the renderer names it. */
const AppCallSchema = z.object({ instance: AppInstanceSchema, callId: z.string().min(1).max(100) }).strict();

/** What a tools/call from an app answers (the MCP CallToolResult, bounded). */
export const AppToolResultSchema = z.object({
  content: z.array(McpContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

/** MCP Apps: servers' own UIs rendered in a sandbox, every request they make going through Berth's rules. */
export const appsMethods = {
  'apps.sandbox': method({
    summary:
      "Where the sandbox proxy lives: a URL on an origin that is not Berth's (a second loopback port in browser mode, berth-app:// in Electron).",
    input: z.object({}).strict(),
    output: z.object({ proxyUrl: z.string() }),
  }),
  'apps.resource': method({
    summary:
      'The UI resource a tool names (cached per server and URI, re-read after resources/list_changed); NOT_FOUND when the server is gone, NOT_READY while it is not running.',
    input: z.object({ server: ServerSchema, uri: UiUriSchema }).strict(),
    output: AppUiResourceSchema,
  }),
  'apps.list': method({
    summary: "A ready server's tools that have a UI (the server's Apps list).",
    input: z.object({ server: ServerSchema }).strict(),
    output: z.array(ServerAppSchema),
  }),
  'apps.callTool': method({
    summary:
      "An app calls a tool of its own server: the same consent as the model's calls, labelled as coming from the app; tools visible to the model only are refused.",
    input: z
      .object({
        origin: AppOriginSchema,
        tool: z.string().min(1).max(500),
        arguments: z.record(z.string(), z.unknown()),
        /** The running app (a random id per card frame) and this call: its questions are grouped and withdrawn with it. */
        call: AppCallSchema.optional(),
      })
      .strict(),
    output: AppToolResultSchema,
  }),
  'apps.cancelCall': method({
    summary:
      "The app gave up on one of its tool calls (its request timed out or was cancelled): the call's consent question is withdrawn and the call never runs.",
    input: AppCallSchema,
    output: z.object({}),
  }),
  'apps.appGone': method({
    summary:
      "An app's card closed (or its conversation was left): its open questions are withdrawn, its 'while the card is open' permissions end, and nothing more runs for it.",
    input: z.object({ instance: AppInstanceSchema }).strict(),
    output: z.object({}),
  }),
  'apps.log': method({
    summary:
      'An app\'s log message (its data as text, JSON for anything but a string), written to its server\'s log with source "app".',
    input: z
      .object({
        origin: AppOriginSchema,
        level: LogLevelSchema,
        logger: z.string().max(200).optional(),
        text: z.string().max(16_384),
      })
      .strict(),
    output: z.object({}),
  }),
  'apps.openExternal': method({
    summary:
      'Open a link an app asked for, after the person said yes in the renderer: http(s) only, in the default browser.',
    input: z.object({ origin: AppOriginSchema, url: z.string().min(1).max(4000) }).strict(),
    output: z.object({}),
  }),
  'apps.setModelContext': method({
    summary:
      "An app's ui/update-model-context for one card: replaces that card's context (empty content clears it); sent with the conversation's next turn.",
    input: z
      .object({
        origin: AppOriginSchema.required({ conversationId: true, toolUseId: true }),
        content: z.array(McpContentBlockSchema).max(50),
        structuredContent: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    output: z.object({}),
  }),
  'apps.modelContext': method({
    summary: "What apps in one conversation have added to the model's context.",
    input: z.object({ conversationId: z.string().min(1).max(200) }).strict(),
    output: z.array(AppModelContextSchema),
  }),
};

export const appsTopics = {
  /** A server's UI resources changed (resources/list_changed or tools/list_changed): cards re-read them. */
  'apps.resourcesChanged': z.object({ server: z.string() }),
  /** The context apps added to one conversation changed. */
  'apps.modelContextChanged': z.object({ conversationId: z.string(), contexts: z.array(AppModelContextSchema) }),
};
