import { z } from 'zod';

// The checks the real Messages API makes that a host's bugs would trip:
// malformed bodies, bad tool names, empty text blocks, and tool_use blocks
// without their tool_result (or the reverse). A fake that accepted those
// would let a broken chat loop pass its tests.

const ContentBlockSchema = z.looseObject({ type: z.string() });

const MessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(ContentBlockSchema)]),
});

const ToolSchema = z.looseObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'String should match pattern ^[a-zA-Z0-9_-]{1,64}$'),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
});

export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(MessageSchema).min(1),
  system: z.union([z.string(), z.array(ContentBlockSchema)]).optional(),
  tools: z.array(ToolSchema).optional(),
  stream: z.boolean().optional(),
  // The real API takes 0 to 1 (OpenAI's 2 is refused).
  temperature: z.number().min(0).max(1).optional(),
});

/** A request body the fake accepted. */
export type MessagesRequestBody = z.infer<typeof MessagesRequestSchema>;
export type RequestMessage = MessagesRequestBody['messages'][number];
export type RequestContentBlock = z.infer<typeof ContentBlockSchema>;

/** Blocks of a message, whatever form its content has. */
export function blocksOf(message: RequestMessage): RequestContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The API combines consecutive messages with the same role into one turn before checking. */
function combineTurns(
  messages: readonly RequestMessage[],
): Array<{ role: 'user' | 'assistant'; blocks: RequestContentBlock[]; index: number }> {
  const turns: Array<{ role: 'user' | 'assistant'; blocks: RequestContentBlock[]; index: number }> = [];
  messages.forEach((message, index) => {
    const last = turns.at(-1);
    if (last !== undefined && last.role === message.role) last.blocks.push(...blocksOf(message));
    else turns.push({ role: message.role, blocks: [...blocksOf(message)], index });
  });
  return turns;
}

function idsOf(blocks: readonly RequestContentBlock[], type: 'tool_use' | 'tool_result'): string[] {
  const key = type === 'tool_use' ? 'id' : 'tool_use_id';
  return blocks.filter((block) => block.type === type).map((block) => String(block[key]));
}

/** The body when the real API would accept it, else its API-style error message. */
export function validateMessagesRequest(raw: unknown): { body: MessagesRequestBody } | { error: string } {
  const parsed = MessagesRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid request'}` };
  }
  const body = parsed.data;
  const names = (body.tools ?? []).map((tool) => tool.name);
  if (new Set(names).size !== names.length) return { error: 'tools: Tool names must be unique.' };

  for (const [index, message] of body.messages.entries()) {
    if (typeof message.content !== 'string' && message.content.length === 0) {
      return {
        error: `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
      };
    }
    for (const [blockIndex, block] of blocksOf(message).entries()) {
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text.length === 0)) {
        return { error: `messages.${index}.content.${blockIndex}.text: text content blocks must be non-empty` };
      }
      if (block.type === 'tool_use' && message.role !== 'assistant')
        return { error: `messages.${index}: tool_use blocks can only be in assistant messages` };
      if (block.type === 'tool_use' && !/^[a-zA-Z0-9_-]+$/.test(String(block.id))) {
        return {
          error: `messages.${index}.content.${blockIndex}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        };
      }
      if (block.type === 'tool_result' && message.role !== 'user')
        return { error: `messages.${index}: tool_result blocks can only be in user messages` };
    }
  }

  const prefillError = checkPrefill(body);
  if (prefillError !== undefined) return { error: prefillError };

  const turns = combineTurns(body.messages);
  for (const [position, turn] of turns.entries()) {
    if (turn.role === 'assistant') {
      const uses = idsOf(turn.blocks, 'tool_use');
      if (uses.length === 0) continue;
      const next = turns[position + 1];
      const answered = new Set(next === undefined ? [] : idsOf(next.blocks, 'tool_result'));
      const missing = uses.filter((id) => !answered.has(id));
      // A final assistant message is a prefill: its tool_use needs no answer yet.
      if (next !== undefined && missing.length > 0) {
        return {
          error: `messages.${next.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        };
      }
    } else {
      const results = idsOf(turn.blocks, 'tool_result');
      if (results.length === 0) continue;
      const previous = turns[position - 1];
      const asked = new Set(previous === undefined ? [] : idsOf(previous.blocks, 'tool_use'));
      const unexpected = results.filter((id) => !asked.has(id));
      if (unexpected.length > 0) {
        return {
          error: `messages.${turn.index}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        };
      }
      const firstOther = turn.blocks.findIndex((block) => block.type !== 'tool_result');
      const lastResult = turn.blocks.map((block) => block.type).lastIndexOf('tool_result');
      if (firstOther !== -1 && firstOther < lastResult) {
        return {
          error: `messages.${turn.index}: tool_result blocks must come before any other content in a user message`,
        };
      }
    }
  }
  return { body };
}

/** Claude 4.6 and later (and any 5+) refuse a request ending with an assistant message, as the API does. */
function refusesPrefill(model: string): boolean {
  const match = /^claude-(?:[a-z]+-)?(\d+)(?:-(\d{1,2}))?(?:-|$)/.exec(model);
  if (match === null) return false;
  const major = Number(match[1]);
  return major > 4 || (major === 4 && Number(match[2] ?? 0) >= 6);
}

/** A final assistant message (a prefill): the model must take one, and it must not end in whitespace or skip thinking. */
function checkPrefill(body: MessagesRequestBody): string | undefined {
  const last = body.messages.at(-1);
  if (last === undefined || last.role !== 'assistant') return undefined;
  if (refusesPrefill(body.model))
    return 'This model does not support assistant message prefill. The conversation must end with a user message.';
  const blocks = blocksOf(last);
  const end = blocks.at(-1);
  if (end?.type === 'text' && typeof end.text === 'string' && end.text !== end.text.trimEnd())
    return 'messages: final assistant content cannot end with trailing whitespace';
  const thinking = (body as { thinking?: { type?: string } }).thinking;
  const first = blocks[0];
  if (
    thinking !== undefined &&
    thinking.type !== 'disabled' &&
    first?.type !== 'thinking' &&
    first?.type !== 'redacted_thinking'
  )
    return `messages.${body.messages.length - 1}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first?.type ?? 'nothing'}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
  return undefined;
}
