import { z } from 'zod';
import { McpContentBlockSchema } from '../domain/chat';
import { HostMessageSchema } from '../domain/host-message';
import { method } from './define';

const ServerSchema = z.string().min(1, 'Name a server').max(200);
const PromptNameSchema = z.string().min(1, 'Name a prompt').max(500);

export const PromptArgumentInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type PromptArgumentInfo = z.infer<typeof PromptArgumentInfoSchema>;

/** One prompt of one ready server, as the slash menu lists it. */
export const PromptInfoSchema = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentInfoSchema),
});
export type PromptInfo = z.infer<typeof PromptInfoSchema>;

/** A server whose prompt list could not be read: shown, not hidden. */
export const PromptListProblemSchema = z.object({
  server: z.string(),
  message: z.string(),
  /** `message` as a code and its facts, for the renderer to word. */
  hostMessage: HostMessageSchema.optional(),
});
export type PromptListProblem = z.infer<typeof PromptListProblemSchema>;

export const PromptCatalogSchema = z.object({
  /** Every prompt of every ready server that declares prompts, by server then name. */
  prompts: z.array(PromptInfoSchema),
  /** Ready servers that declare prompts (possibly none yet), and whether each can suggest argument values. */
  servers: z.array(z.object({ name: z.string(), completions: z.boolean() })),
  problems: z.array(PromptListProblemSchema),
});
export type PromptCatalog = z.infer<typeof PromptCatalogSchema>;

export const PromptMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: McpContentBlockSchema,
});
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

export const PromptResultSchema = z.object({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
export type PromptResult = z.infer<typeof PromptResultSchema>;

const ArgumentValuesSchema = z.record(z.string().max(200), z.string().max(100_000));

export const CompletionRefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ref/prompt'), name: PromptNameSchema }).strict(),
  z
    .object({ type: z.literal('ref/resource'), uri: z.string().min(1, 'Give a resource template URI').max(4_096) })
    .strict(),
]);
export type CompletionRef = z.infer<typeof CompletionRefSchema>;

export const CompletionRequestSchema = z
  .object({
    server: ServerSchema,
    ref: CompletionRefSchema,
    argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(10_000) }).strict(),
    /** Arguments the person already filled in, so the server can narrow its suggestions. */
    context: z.object({ arguments: ArgumentValuesSchema }).strict().optional(),
  })
  .strict();
export type CompletionRequest = z.infer<typeof CompletionRequestSchema>;

export const CompletionResultSchema = z.object({
  /** At most 100, as the server sent them. */
  values: z.array(z.string()),
  total: z.number().int().min(0).optional(),
  hasMore: z.boolean().optional(),
  /** True when a newer request for the same field replaced this one before it answered. */
  superseded: z.boolean().optional(),
});
export type CompletionResult = z.infer<typeof CompletionResultSchema>;

export const promptMethods = {
  'prompts.list': method({
    summary: 'Every prompt of every ready server (cached; refreshed when a server says its list changed).',
    input: z.object({}).strict(),
    output: PromptCatalogSchema,
  }),
  'prompts.get': method({
    summary: "Fill in one server's prompt with the given arguments and return its messages.",
    input: z
      .object({ server: ServerSchema, name: PromptNameSchema, arguments: ArgumentValuesSchema.default({}) })
      .strict(),
    output: PromptResultSchema,
  }),
  'completion.complete': method({
    summary:
      'Ask a server to suggest values for one prompt or resource-template argument (a newer request for the same field cancels the older).',
    input: CompletionRequestSchema,
    output: CompletionResultSchema,
  }),
};

export const promptTopics = {
  /** A server's prompt list changed, or a server with prompts became ready or went away. */
  'prompts.changed': PromptCatalogSchema,
};
