import type { ContentBlockParam, MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ChatToolResultBlock } from '../../shared/domain/chat';
import type { ToolInfo } from '../../shared/domain/server';
import type { ToolNameMap } from './tool-names';
import { taskResultContent } from './task-result-message';
import { toAnthropicContent, toAnthropicToolResult } from './tool-results';

/** Told to the model for a tool call whose result was never saved (Berth stopped or crashed meanwhile). */
export const INTERRUPTED_TEXT = 'This tool call was interrupted before it finished; there is no result.';

/** A tool of a ready server, as the engine offers it. */
export interface AvailableTool {
  server: string;
  tool: ToolInfo;
}

interface Turn {
  role: 'user' | 'assistant';
  blocks: ContentBlockParam[];
}

/** How a stored tool result becomes the request's tool_result (app/chat/results' RequestCapping cuts big ones); `server`: the server of its call. */
export interface ToolResultShaper {
  toolResult(block: ChatToolResultBlock, server: string | undefined): ToolResultBlockParam;
}

const uncut: ToolResultShaper = { toolResult: (block) => toAnthropicToolResult(block) };

function toBlocks(
  message: ChatMessage,
  shaper: ToolResultShaper,
  serverOf: ReadonlyMap<string, string>,
): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      // The API refuses empty text blocks.
      if (block.text.trim() !== '') blocks.push({ type: 'text', text: block.text });
    } else if (block.type === 'thinking') {
      // Anthropic's own blocks go back exactly as they came (the API checks the signature, and requires them in a
      // turn that used tools); reasoning without a signature (OpenAI-compatible) is never sent back.
      if (message.role !== 'assistant') continue;
      if (block.redacted !== undefined) blocks.push({ type: 'redacted_thinking', data: block.redacted });
      else if (block.signature !== undefined)
        blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'tool_use') {
      if (message.role === 'assistant')
        blocks.push({ type: 'tool_use', id: block.id, name: block.apiName, input: block.input });
    } else if (block.type === 'attachment') {
      if (message.role !== 'user') continue;
      // The label says where the context came from; the content follows as the API can take it.
      const { label, server, content } = block.attachment;
      blocks.push(
        { type: 'text', text: `Attached${server === undefined ? '' : ` from server '${server}'`}: ${label}` },
        toAnthropicContent(content),
      );
    } else if (block.type === 'task_result') {
      if (message.role === 'user') blocks.push(...taskResultContent(block, shaper));
    } else if (message.role === 'user') {
      blocks.push(shaper.toolResult(block, serverOf.get(block.toolUseId)));
    }
  }
  return blocks;
}

const isThinking = (block: ContentBlockParam): boolean =>
  block.type === 'thinking' || block.type === 'redacted_thinking';

/**
 * Appends a reply's blocks to the reply before it (two assistant messages in a row, as a stopped turn can leave).
 * Its thinking goes before the first block that is not thinking: the API refuses a turn's reply that uses tools
 * unless it starts with its thinking ("Expected `thinking` or `redacted_thinking`, but found `text`").
 */
function mergeReply(into: ContentBlockParam[], blocks: readonly ContentBlockParam[]): void {
  const thinking = blocks.filter(isThinking);
  const firstOther = into.findIndex((block) => !isThinking(block));
  if (thinking.length > 0 && firstOther !== -1) into.splice(firstOther, 0, ...thinking);
  else into.push(...thinking);
  into.push(...blocks.filter((block) => !isThinking(block)));
}

function interrupted(toolUseId: string): ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    is_error: true,
    content: [{ type: 'text', text: INTERRUPTED_TEXT }],
  };
}

/**
 * The stored history as the Messages API wants it: consecutive messages of
 * one role combined (a stopped turn leaves two user messages in a row; merged
 * replies keep their thinking first), every
 * tool_use answered in the next user turn — a result that was never saved is
 * answered as interrupted — tool results first, and no result without its
 * tool_use. Each result goes through `shaper` (big ones are cut there).
 */
export function toApiMessages(messages: readonly ChatMessage[], shaper: ToolResultShaper = uncut): MessageParam[] {
  const serverOf = new Map<string, string>();
  for (const message of messages)
    for (const block of message.content) if (block.type === 'tool_use') serverOf.set(block.id, block.server);
  const turns: Turn[] = [];
  for (const message of messages) {
    // A message that got no reply is left out (the person may retry it), never merged into the next one.
    if (message.failed !== undefined) continue;
    const blocks = toBlocks(message, shaper, serverOf);
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last === undefined || last.role !== message.role) turns.push({ role: message.role, blocks });
    else if (message.role === 'assistant') mergeReply(last.blocks, blocks);
    else last.blocks.push(...blocks);
  }

  const result: MessageParam[] = [];
  for (let index = 0; index < turns.length; index += 1) {
    const turn = turns[index] as Turn;
    if (turn.role === 'assistant') {
      result.push({ role: 'assistant', content: turn.blocks });
      const asked = turn.blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      if (asked.length === 0) continue;
      const next = turns[index + 1];
      const answered =
        next?.role === 'user'
          ? next.blocks.filter((block): block is ToolResultBlockParam => block.type === 'tool_result')
          : [];
      const byId = new Map(answered.map((block) => [block.tool_use_id, block]));
      const results = asked.map((id) => byId.get(id) ?? interrupted(id));
      const rest = next?.role === 'user' ? next.blocks.filter((block) => block.type !== 'tool_result') : [];
      result.push({ role: 'user', content: [...results, ...rest] });
      if (next?.role === 'user') index += 1;
    } else {
      // Results here have no tool_use before them (the history was cut): drop them.
      const blocks = turn.blocks.filter((block) => block.type !== 'tool_result');
      if (blocks.length > 0) result.push({ role: 'user', content: blocks });
    }
  }
  return result;
}

/** Tool definitions for the request; the description says which server a tool comes from. */
export function toolDefinitions(tools: readonly AvailableTool[], names: ToolNameMap): Tool[] {
  const definitions: Tool[] = [];
  for (const { server, tool } of tools) {
    const name = names.apiName(server, tool.name);
    if (name === undefined) continue;
    const about = [tool.title, tool.description]
      .filter((part): part is string => part !== undefined && part.trim() !== '')
      .join(': ');
    const origin = `(MCP server "${server}", tool "${tool.name}")`;
    definitions.push({
      name,
      description: about === '' ? origin : `${about}\n\n${origin}`,
      input_schema: { ...tool.inputSchema, type: 'object' },
    });
  }
  return definitions;
}

/**
 * `messages` with `context` (what apps added: app/apps/model-context.ts) as a
 * last text block of the last user message, which is what the model answers
 * next. Only the request carries it: nothing is saved in the conversation.
 */
export function withTurnContext(messages: MessageParam[], context: string | undefined): MessageParam[] {
  const last = messages.at(-1);
  if (context === undefined || context.trim() === '' || last === undefined || last.role !== 'user') return messages;
  const content: ContentBlockParam[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  content.push({ type: 'text', text: context });
  return [...messages.slice(0, -1), { role: 'user', content }];
}
