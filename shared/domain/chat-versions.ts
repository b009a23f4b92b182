import type { ChatFork, ChatMessage } from './chat';

/** The "‹ 2 / 3 ›" of one position: which version is live, how many there are, and the fork's key to switch. */
export interface VersionMark {
  after: string;
  /** 0-based. */
  active: number;
  count: number;
}

/**
 * Each position of the live path that has versions, keyed by the id of the message shown there — or, when the live
 * version holds nothing yet (its turn saved nothing), by the id of the message before it.
 */
export function versionMarks(conversation: {
  messages: readonly ChatMessage[];
  forks?: readonly ChatFork[];
}): Map<string, VersionMark> {
  const marks = new Map<string, VersionMark>();
  const { messages } = conversation;
  for (const fork of conversation.forks ?? []) {
    const index = fork.after === '' ? 0 : messages.findIndex((message) => message.id === fork.after) + 1;
    if (index === 0 && fork.after !== '') continue;
    const shown = messages[index] ?? messages[index - 1];
    if (shown === undefined || fork.versions.length < 2) continue;
    marks.set(shown.id, { after: fork.after, active: fork.active, count: fork.versions.length });
  }
  return marks;
}
