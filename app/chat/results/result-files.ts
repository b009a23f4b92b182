import { createHash } from 'node:crypto';
import { readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { McpContentBlockSchema } from '../../../shared/domain/chat';
import type { ChatContentBlock, ChatMessage, ChatToolResultBlock, Conversation } from '../../../shared/domain/chat';
import { errorMessage } from '../../../shared/error-message';
import { atomicWriteFile } from '../../config/atomic-write';
import { holdsBigResult, previewBlockResult } from './result-preview';
import { mapForkMessages } from '../conversation-forks';

// Big tool results beside their conversation: `<conversations>/<id>.results/<hash of the tool_use id>.json`, each
// written once, atomically, when the message that holds it is first saved. The conversation's file keeps the preview
// and the `whole` reference, so a save of a conversation with a 20 MiB result writes kilobytes, not 20 MiB again.
// In memory the conversation holds the whole result (the model's cut and read_tool_result read it as before).

/** What one result file holds. The tool_use id is checked on reading, so a file copied under another name is refused. */
const ResultFileSchema = z.object({
  version: z.literal(1),
  toolUseId: z.string().min(1),
  content: z.array(McpContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
});

export class ResultFiles {
  /** Results known to be on disk (`<conversation id>/<tool_use id>`): no stat on every save. */
  private readonly written = new Set<string>();

  constructor(
    private readonly conversationsDir: string,
    private readonly trashDir: string,
    /** Told about a result file that is missing or damaged (the conversation loads with its preview). */
    private readonly onProblem: (conversationId: string, message: string) => void,
  ) {}

  /**
   * The conversation as its file holds it: every big result written beside it (once) and kept as its preview — in the
   * live path and in every stored version (conversation-forks.ts).
   */
  async externalize(conversation: Conversation): Promise<Conversation> {
    const messages = await this.externalizeMessages(conversation.id, conversation.messages);
    const forks =
      conversation.forks === undefined
        ? undefined
        : await mapForkMessages(conversation.forks, (kept) => this.externalizeMessages(conversation.id, kept));
    if (messages === conversation.messages && forks === conversation.forks) return conversation;
    return { ...conversation, messages, ...(forks !== undefined ? { forks } : {}) };
  }

  /** The conversation as memory holds it: each stored result whole again; a file gone or damaged leaves the preview, marked `missing`. */
  async hydrate(conversation: Conversation): Promise<Conversation> {
    const messages = await this.hydrateMessages(conversation.id, conversation.messages);
    if (conversation.forks === undefined) return { ...conversation, messages };
    const forks = await mapForkMessages(conversation.forks, (kept) => this.hydrateMessages(conversation.id, kept));
    return { ...conversation, messages, forks };
  }

  /** `messages` with their big results written beside and kept as previews; the same array when none holds one. */
  private async externalizeMessages(conversationId: string, messages: ChatMessage[]): Promise<ChatMessage[]> {
    let changed = false;
    const out: ChatMessage[] = [];
    for (const message of messages) {
      if (!message.content.some(holdsBigResult)) {
        out.push(message);
        continue;
      }
      const content: ChatContentBlock[] = [];
      for (const block of message.content) {
        if (!holdsBigResult(block)) {
          content.push(block);
          continue;
        }
        // A background task's notice and the copy sent to the model share one result id: one file for both.
        if (block.type === 'tool_result' || block.type === 'task_result')
          await this.writeOnce(conversationId, block.type === 'tool_result' ? block : block.result);
        content.push(previewBlockResult(block));
      }
      out.push({ ...message, content });
      changed = true;
    }
    return changed ? out : messages;
  }

  private async hydrateMessages(conversationId: string, messages: ChatMessage[]): Promise<ChatMessage[]> {
    const out: ChatMessage[] = [];
    for (const message of messages) {
      const content: ChatContentBlock[] = [];
      for (const block of message.content)
        content.push(
          block.type === 'tool_result'
            ? await this.read(conversationId, block)
            : block.type === 'task_result'
              ? { ...block, result: await this.read(conversationId, block.result) }
              : block,
        );
      out.push({ ...message, content });
    }
    return out;
  }

  /** The folder goes to the trash with its conversation (and back with it). */
  async moveToTrash(id: string): Promise<void> {
    await this.move(this.dir(this.conversationsDir, id), this.dir(this.trashDir, id));
    for (const key of this.written) if (key.startsWith(`${id}/`)) this.written.delete(key);
  }

  async restoreFromTrash(id: string): Promise<void> {
    await this.move(this.dir(this.trashDir, id), this.dir(this.conversationsDir, id));
  }

  /** Where one result's file is (for tests and the message that names it). */
  filePath(conversationId: string, toolUseId: string): string {
    // Hashed: a tool_use id comes from the model and is no safe file name.
    const name = createHash('sha256').update(toolUseId).digest('hex').slice(0, 32);
    return join(this.dir(this.conversationsDir, conversationId), `${name}.json`);
  }

  private dir(parent: string, id: string): string {
    return join(parent, `${id}.results`);
  }

  private async writeOnce(conversationId: string, result: ChatToolResultBlock): Promise<void> {
    const key = `${conversationId}/${result.toolUseId}`;
    if (this.written.has(key)) return;
    const path = this.filePath(conversationId, result.toolUseId);
    if (!(await exists(path))) {
      const file: z.infer<typeof ResultFileSchema> = {
        version: 1,
        toolUseId: result.toolUseId,
        content: result.content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
      await atomicWriteFile(path, JSON.stringify(file));
    }
    this.written.add(key);
  }

  private async read(conversationId: string, result: ChatToolResultBlock): Promise<ChatToolResultBlock> {
    if (result.whole === undefined || result.whole.missing === true) return result;
    const path = this.filePath(conversationId, result.toolUseId);
    let problem: string;
    try {
      const parsed = ResultFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (parsed.success && parsed.data.toolUseId === result.toolUseId) {
        this.written.add(`${conversationId}/${result.toolUseId}`);
        const { whole: _whole, structuredContent: _preview, ...rest } = result;
        return {
          ...rest,
          content: parsed.data.content,
          ...(parsed.data.structuredContent !== undefined ? { structuredContent: parsed.data.structuredContent } : {}),
        };
      }
      problem = parsed.success ? `it holds the result of another call` : 'it is not a saved tool result';
    } catch (error) {
      problem =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'the file is missing'
          : `unreadable (${errorMessage(error)})`;
    }
    this.onProblem(
      conversationId,
      `The whole result of tool call ${result.toolUseId} in conversation ${conversationId} is no longer available (${problem}: ${path}); the conversation keeps its preview`,
    );
    return { ...result, whole: { ...result.whole, missing: true } };
  }

  private async move(from: string, to: string): Promise<void> {
    try {
      await rename(from, to);
    } catch (error) {
      // No big result in this conversation: nothing to move.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
