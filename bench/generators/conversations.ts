// MINIMAL VERSION written on h-bench so the bench harness runs; h-convlist writes the real
// generator at this path (issue #22). When both exist, keep h-convlist's and make sure it
// still exports generateConversations and writeConversations with these signatures.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Conversation } from '../../shared/domain/chat';

export interface ConversationsOptions {
  /** How many conversations; issue #22's heavy user has 5,000. */
  count?: number;
  /** Messages in each (a person message and a reply per pair). */
  messagesEach?: number;
  /** Epoch ms of the oldest conversation; one minute apart after it. */
  startedAt?: number;
}

/** `count` small, deterministic conversations with distinct, searchable titles. */
export function generateConversations(options: ConversationsOptions = {}): Conversation[] {
  const count = options.count ?? 5_000;
  const messagesEach = options.messagesEach ?? 4;
  const start = options.startedAt ?? Date.UTC(2025, 0, 1);
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a whole number ≥ 0, got ${count}`);
  const topics = ['release notes', 'database migration', 'flaky test', 'quarterly report', 'onboarding', 'API design', 'bug triage', 'travel plans'];
  return Array.from({ length: count }, (_, index) => {
    const createdAt = start + index * 60_000;
    const messages: Conversation['messages'] = Array.from({ length: messagesEach }, (_unused, m) =>
      m % 2 === 0
        ? { id: `m${m}`, role: 'user' as const, createdAt: createdAt + m * 1_000, content: [{ type: 'text' as const, text: `Question ${m / 2 + 1} about ${topics[index % topics.length]}` }] }
        : { id: `m${m}`, role: 'assistant' as const, createdAt: createdAt + m * 1_000, model: 'claude-bench', stopReason: 'end_turn' as const, content: [{ type: 'text' as const, text: 'Here is a short answer.' }] },
    );
    return {
      id: `bench-${String(index).padStart(5, '0')}`,
      title: `${topics[index % topics.length]} #${index + 1}`,
      createdAt,
      updatedAt: createdAt + messagesEach * 1_000,
      model: 'claude-bench',
      messages,
      disabledServers: [],
      disabledTools: [],
    };
  });
}

/** Writes conversations where the conversation store keeps them: `<configDir>/conversations/<id>.json`. */
export async function writeConversations(configDir: string, conversations: readonly Conversation[]): Promise<void> {
  const dir = join(configDir, 'conversations');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const conversation of conversations) await writeFile(join(dir, `${conversation.id}.json`), JSON.stringify(conversation), { mode: 0o600 });
}
