import { z } from 'zod';

// The checks OpenAI's Chat Completions API makes that a host's translation
// bugs would trip: malformed bodies and tools, tool messages that answer no
// call, calls left without an answer, arguments that are not a string. A fake
// that let those through would let a broken translation pass its tests.

const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });
const ImagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1) }),
});

/** OpenAI's own limit ("string too long. Expected a string with maximum length 40"). */
const ToolCallIdSchema = z.string().min(1).max(40, 'string too long. Expected a string with maximum length 40');

const ToolCallSchema = z.object({
  id: ToolCallIdSchema,
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const MessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: z.union([z.string(), z.array(TextPartSchema)]) }),
  z.looseObject({ role: z.literal('developer'), content: z.union([z.string(), z.array(TextPartSchema)]) }),
  z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.union([TextPartSchema, ImagePartSchema])).min(1)]),
  }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(TextPartSchema), z.null()]).optional(),
    tool_calls: z.array(ToolCallSchema).min(1).optional(),
  }),
  z.looseObject({
    role: z.literal('tool'),
    tool_call_id: ToolCallIdSchema,
    content: z.union([z.string(), z.array(TextPartSchema)]),
  }),
]);

const ToolSchema = z.object({
  type: z.literal('function'),
  function: z.looseObject({
    name: z
      .string()
      .regex(
        /^[a-zA-Z0-9_-]{1,64}$/,
        "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      ),
    description: z.string().optional(),
    parameters: z.looseObject({}).optional(),
  }),
});

export const ChatCompletionsRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(MessageSchema).min(1),
  tools: z.array(ToolSchema).optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
  max_tokens: z.number().int().min(1).optional(),
  max_completion_tokens: z.number().int().min(1).optional(),
  tool_choice: z
    .union([
      z.enum(['auto', 'none', 'required']),
      z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
    ])
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  temperature: z.number().min(0).max(2).optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
});

/** A request body the fake accepted. */
export type ChatCompletionsRequestBody = z.infer<typeof ChatCompletionsRequestSchema>;
export type ChatCompletionsRequestMessage = ChatCompletionsRequestBody['messages'][number];

/** The text of a message's content, whatever its form. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type?: unknown; text?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    )
    .join('\n');
}

/** The body when the real API would accept it, else its API-style error message. */
export function validateChatCompletionsRequest(raw: unknown): { body: ChatCompletionsRequestBody } | { error: string } {
  const parsed = ChatCompletionsRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `Invalid value at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid request'}` };
  }
  const body = parsed.data;
  if (body.stream_options !== undefined && body.stream !== true)
    return { error: "The 'stream_options' parameter is only allowed when 'stream' is enabled." };
  if ((body.tools ?? []).length === 0 && (body.tool_choice !== undefined || body.parallel_tool_calls !== undefined)) {
    return { error: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified." };
  }
  const names = (body.tools ?? []).map((tool) => tool.function.name);
  if (new Set(names).size !== names.length) return { error: 'Invalid tools: tool names must be unique.' };

  const messages = body.messages;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as ChatCompletionsRequestMessage;
    if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      if ((message.content === null || message.content === undefined) && calls.length === 0) {
        return { error: `Invalid value for 'messages[${index}].content': expected a string, got null.` };
      }
      if (calls.length === 0) continue;
      // Every call is answered by the tool messages right after it.
      const answered = new Set<string>();
      let next = index + 1;
      for (; next < messages.length && messages[next]?.role === 'tool'; next += 1)
        answered.add((messages[next] as { tool_call_id: string }).tool_call_id);
      const missing = calls.map((call) => call.id).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return {
          error: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        };
      }
      const asked = new Set(calls.map((call) => call.id));
      for (let answer = index + 1; answer < next; answer += 1) {
        const id = (messages[answer] as { tool_call_id: string }).tool_call_id;
        if (!asked.has(id))
          return {
            error: `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          };
      }
      index = next - 1;
    } else if (message.role === 'tool') {
      return {
        error: `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${index}])`,
      };
    }
  }
  return { body };
}
