import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation } from '../../shared/domain/chat';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../app/config/private-files';

/** What a generated config dir holds, so a bench or a test knows what to look for. */
export interface GeneratedConversations {
  /** Newest first, as the list shows them. */
  ids: string[];
  titles: string[];
}

export interface GenerateConversationsOptions {
  /** How many conversations (a heavy user: 5,000). */
  count: number;
  /** Messages in each (alternating person and assistant); 4 unless told. */
  messagesPerConversation?: number;
  /** The newest conversation's updatedAt; each older one a minute before. */
  now?: number;
  model?: string;
}

const TOPICS = [
  'Harbour schedule',
  'Lisbon trip',
  'Quarterly report',
  'Kiel ferry times',
  'Recipe ideas',
  'Bug triage',
  'Reading list',
  'Garden plan',
];

/** A stable UUID-shaped id per index, so runs are comparable. */
export function generatedConversationId(index: number): string {
  const hex = index.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** The title of conversation `index`: a topic and a number, unique, so a search can find exactly one. */
export function generatedConversationTitle(index: number): string {
  return `${TOPICS[index % TOPICS.length]} #${index}`;
}

function generatedMessages(index: number, count: number, updatedAt: number, model: string): ChatMessage[] {
  return Array.from({ length: count }, (_, position) => {
    const person = position % 2 === 0;
    const createdAt = updatedAt - (count - position) * 1_000;
    const text = person
      ? `Question ${position / 2 + 1} about ${generatedConversationTitle(index)}: what should I look at first?`
      : `Here is a short answer about ${generatedConversationTitle(index)}, with a few details to make the file realistic. `.repeat(
          3,
        );
    return person
      ? { id: `m${position}`, role: 'user', createdAt, content: [{ type: 'text', text }] }
      : {
          id: `m${position}`,
          role: 'assistant',
          createdAt,
          content: [{ type: 'text', text }],
          model,
          stopReason: 'end_turn',
        };
  });
}

/** `options.count` conversations, newest first, as Berth would have saved them (nothing written). */
export function buildConversations(options: GenerateConversationsOptions): Conversation[] {
  const now = options.now ?? Date.now();
  const model = options.model ?? 'claude-sonnet-4-5';
  const messages = options.messagesPerConversation ?? 4;
  return Array.from({ length: options.count }, (_, index) => {
    const updatedAt = now - index * 60_000;
    return {
      id: generatedConversationId(index),
      title: generatedConversationTitle(index),
      createdAt: updatedAt - 3_600_000,
      updatedAt,
      model,
      messages: generatedMessages(index, messages, updatedAt, model),
      disabledServers: [],
      disabledTools: [],
    };
  });
}

/**
 * Writes conversation files into `<configDir>/conversations` as Berth saves
 * them (0600 files, 0700 folder) but with no index: the first start builds it.
 */
export async function writeConversations(configDir: string, conversations: readonly Conversation[]): Promise<void> {
  const dir = join(configDir, 'conversations');
  await makePrivateDir(dir);
  const pending: Promise<void>[] = [];
  for (const conversation of conversations) {
    pending.push(
      writeFile(join(dir, `${conversation.id}.json`), `${JSON.stringify(conversation, null, 1)}\n`, {
        mode: PRIVATE_FILE_MODE,
      }),
    );
    // A few hundred writes in flight at most: enough to be quick, few enough for any file-descriptor limit.
    if (pending.length >= 256) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
}

/**
 * Writes `count` generated conversations into `<configDir>/conversations`
 * (see writeConversations). Shared by the bench (the heavy-user rows) and the e2e.
 */
export async function generateConversations(
  configDir: string,
  options: GenerateConversationsOptions,
): Promise<GeneratedConversations> {
  const conversations = buildConversations(options);
  await writeConversations(configDir, conversations);
  return { ids: conversations.map((c) => c.id), titles: conversations.map((c) => c.title) };
}
