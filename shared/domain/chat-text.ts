// Small chat helpers without zod: the renderer's first screen uses them, and importing
// them from ./chat would bring every chat schema (and zod) into that screen's JavaScript.
// The parameters are the parts of ./chat's types these helpers read, written out: this
// file imports nothing from ./chat, so the two never form a circle.

/** The part of a ChatMessage the helpers read. */
interface MessageLike {
  readonly role: 'user' | 'assistant';
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
}

/** The part of a ChatToolResultBlock isStoppedResult reads. */
interface ToolResultLike {
  readonly isError: boolean;
  readonly stopped?: boolean;
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>;
}

/**
 * The key of one tool in `disabledTools`. Server names cannot contain '/'
 * (see ServerNameSchema), so the first '/' always separates the two parts.
 */
export function toolKey(server: string, tool: string): string {
  return `${server}/${tool}`;
}

/** The person's own words in a message (tool results excluded). */
export function messageText(message: MessageLike): string {
  return message.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** A user message that the person wrote (not one carrying tool results). */
export function isPersonMessage(message: MessageLike): boolean {
  return (
    message.role === 'user' && message.content.some((block) => block.type === 'text' || block.type === 'attachment')
  );
}

/** What the model reads for a tool call the person stopped before it finished. */
export const STOPPED_TOOL_TEXT = 'The user stopped this tool call before it finished.';

/** A call the person stopped: marked so since issue 14; older conversations are recognised by the text the model was given. */
export function isStoppedResult(block: ToolResultLike): boolean {
  if (block.stopped === true) return true;
  const [only, ...rest] = block.content;
  return block.isError && rest.length === 0 && only?.type === 'text' && only.text === STOPPED_TOOL_TEXT;
}

/** Why a turn ended, beyond the API's stop reasons: the person pressed stop. */
export const STOPPED_BY_PERSON = 'stopped';
