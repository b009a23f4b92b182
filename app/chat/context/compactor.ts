import type { ChatMessage, ChatToolResultBlock } from '../../../shared/domain/chat';
import type { LlmProvider, LlmUsage } from '../../providers/llm-provider';

// Berth's own compaction: the messages a cut leaves out, summarised by the conversation's model through
// its own provider. They go as a plain transcript (not as tool_use/tool_result blocks), so the request
// needs no tool definitions, reads the same on every provider, and a huge tool result is only its head.

/** What the summary request asks for. */
export const SUMMARY_SYSTEM =
  'You compact a conversation between a user and an AI assistant that has outgrown the context window. Write the summary the assistant will continue from: the user’s goals and requests, decisions made, facts learnt (names, paths, numbers, results of tool calls), what was done and what is still open. Keep it faithful and specific; use short paragraphs or lists. Do not address the user; do not add anything that was not said.';

/** How much of one tool result or attachment the transcript carries. */
const RESULT_HEAD_CHARS = 2_000;
/** Most output tokens a summary may take. */
export const SUMMARY_MAX_TOKENS = 2_048;

const head = (text: string, limit = RESULT_HEAD_CHARS): string =>
  text.length <= limit ? text : `${text.slice(0, limit)} […${text.length - limit} more characters]`;

function resultText(block: ChatToolResultBlock): string {
  return block.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** One saved message as lines of a transcript. */
export function transcriptOf(message: ChatMessage): string {
  const lines: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text') lines.push(`${message.role === 'user' ? 'User' : 'Assistant'}: ${block.text}`);
    else if (block.type === 'attachment') lines.push(`User attached: ${block.attachment.label}`);
    // The model's reasoning is its own scratch work, not what was said: the summary leaves it out.
    else if (block.type === 'thinking') continue;
    else if (block.type === 'tool_use')
      lines.push(
        `Assistant called ${block.server === '' ? '' : `${block.server} › `}${block.tool} with ${head(JSON.stringify(block.input), 500)}`,
      );
    else if (block.type === 'task_result') {
      // The notice was never sent; the copy the person sent is what the model read.
      if (block.forModel === true)
        lines.push(
          `User sent the result of background task ${block.serverTaskId} (${block.tool}): ${head(resultText(block.result))}`,
        );
    } else lines.push(`Tool result${block.isError === true ? ' (error)' : ''}: ${head(resultText(block))}`);
  }
  return lines.join('\n');
}

export interface SummariseInput {
  provider: LlmProvider;
  model: string;
  /** The messages to summarise, oldest first. */
  messages: readonly ChatMessage[];
  /** The summary an earlier compaction wrote, which these messages continue. */
  earlier?: string | undefined;
  /** Most characters of transcript one summary request carries (the model's window, less room to answer). */
  maxChars: number;
  signal?: AbortSignal | undefined;
  /** Each summary request's usage: compaction costs tokens, and the turn's total says so. */
  onUsage?: ((usage: LlmUsage) => void) | undefined;
}

/**
 * The summary of `messages`. A transcript longer than `maxChars` is summarised piece by piece, each
 * request carrying the summary so far, so a conversation far above the window is still compacted.
 */
export async function summarise(input: SummariseInput): Promise<string> {
  let summary = input.earlier;
  let piece: string[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (piece.length === 0) return;
    const before = summary === undefined ? '' : `The summary of the conversation before this part:\n\n${summary}\n\n`;
    const response = await input.provider.stream({
      model: input.model,
      system: SUMMARY_SYSTEM,
      maxTokens: SUMMARY_MAX_TOKENS,
      messages: [
        {
          role: 'user',
          content: `${before}The conversation${summary === undefined ? '' : ' after that'}:\n\n${piece.join('\n\n')}\n\nWrite the summary of the whole conversation so far.`,
        },
      ],
      ...(input.signal !== undefined ? { signal: input.signal } : {}),
    });
    input.onUsage?.(response.usage);
    const text = response.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('')
      .trim();
    if (text === '') throw new Error('The model answered the summary request with no text, so nothing was compacted.');
    summary = text;
    piece = [];
    size = 0;
  };
  for (const message of input.messages) {
    const text = head(transcriptOf(message), input.maxChars);
    if (text === '') continue;
    if (size + text.length > input.maxChars) await flush();
    piece.push(text);
    size += text.length;
  }
  await flush();
  return summary ?? '';
}
