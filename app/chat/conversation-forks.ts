import { HostError } from '../../shared/result';
import { conversationError } from '../../shared/domain/conversation-errors';
import type { ChatFork, ChatForkVersion, ChatMessage, Conversation } from '../../shared/domain/chat';

/** Versions kept at one position: a bound on the file's size that no person editing by hand reaches lightly. */
export const MAX_VERSIONS = 20;

/**
 * Branches and versions of a conversation. `messages` stays the live path (requests, context, search and export read
 * only it); each fork keeps the other tails of one position. Every change here is one new Conversation value the
 * store saves in one write, so a switch is as atomic as any save.
 */

/** Where the fork after `after` stands in `messages`; -1 when that message is not in the live path. */
export function positionOf(messages: readonly ChatMessage[], after: string): number {
  if (after === '') return 0;
  const index = messages.findIndex((message) => message.id === after);
  return index === -1 ? -1 : index + 1;
}

/**
 * The live tail from `index` kept as the active version of the fork there (made when new), and a new, empty version
 * made active: the turn that follows fills it. An active version left empty (its turn saved nothing) is reused.
 */
export function branchAt(conversation: Conversation, index: number): Conversation {
  const after = conversation.messages[index - 1]?.id ?? '';
  const { prefix, tail, others } = cut(conversation, index);
  const fork = others.fork ?? { after, active: 0, versions: [{ messages: [] }] };
  if (tail.messages.length === 0) return { ...conversation, messages: prefix, forks: [...others.rest, fork] };
  if (fork.versions.length >= MAX_VERSIONS)
    throw HostError.coded(
      'CONFLICT',
      conversationError('conversation-errors.too-many-versions', { max: MAX_VERSIONS }),
    );
  const versions = fork.versions.map((version, at) => (at === fork.active ? tail : version));
  versions.push({ messages: [] });
  return {
    ...conversation,
    messages: prefix,
    forks: [...others.rest, { after, active: versions.length - 1, versions }],
  };
}

/**
 * Version `version` of the fork after `after` made live: the live tail (with the forks inside it) goes back into its
 * slot, the chosen one comes out with its own. A live tail that holds nothing is no version and is dropped.
 */
export function switchVersion(conversation: Conversation, after: string, version: number): Conversation {
  const index = positionOf(conversation.messages, after);
  const { prefix, tail, others } = cut(conversation, index);
  const fork = index === -1 ? undefined : others.fork;
  if (fork === undefined || version < 0 || version >= fork.versions.length)
    throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.version-gone', {}));
  if (version === fork.active) return conversation;
  const chosen = fork.versions[version] ?? { messages: [] };
  let versions = fork.versions.map((kept, at) => (at === fork.active ? tail : at === version ? EMPTY : kept));
  let active = version;
  if (tail.messages.length === 0) {
    versions = versions.filter((_, at) => at !== fork.active);
    if (fork.active < version) active -= 1;
  }
  const forks = [...others.rest, ...(chosen.forks ?? [])];
  if (versions.length > 1) forks.push({ after, active, versions });
  return { ...conversation, messages: [...answered(prefix, chosen), ...chosen.messages], forks };
}

/** Forks whose position left the live path (a retry or an edit of the last message replaced it) go with it. */
export function pruneForks(conversation: Conversation): Conversation {
  if (conversation.forks === undefined) return conversation;
  const kept = conversation.forks.filter((fork) => positionOf(conversation.messages, fork.after) !== -1);
  const { forks: _all, ...rest } = conversation;
  return kept.length === 0 ? rest : { ...rest, forks: kept };
}

/**
 * `forks` with every stored version's messages changed by `change` (nested forks too); the same array when nothing
 * changed. For what walks every message a file holds (big results written beside it, and read back).
 */
export async function mapForkMessages(
  forks: ChatFork[],
  change: (messages: ChatMessage[]) => Promise<ChatMessage[]>,
): Promise<ChatFork[]> {
  let changed = false;
  const out: ChatFork[] = [];
  for (const fork of forks) {
    const versions: ChatForkVersion[] = [];
    for (const version of fork.versions) {
      const messages = await change(version.messages);
      const nested = version.forks === undefined ? undefined : await mapForkMessages(version.forks, change);
      if (messages === version.messages && nested === version.forks) versions.push(version);
      else versions.push({ messages, ...(nested !== undefined ? { forks: nested } : {}) });
    }
    const same = versions.every((version, at) => version === fork.versions[at]);
    changed ||= !same;
    out.push(same ? fork : { ...fork, versions });
  }
  return changed ? out : forks;
}

const EMPTY: ChatForkVersion = { messages: [] };

/** The live path cut at `index`: what stays, the tail (with the forks inside it), the fork at the cut and the rest. */
function cut(
  conversation: Conversation,
  index: number,
): { prefix: ChatMessage[]; tail: ChatForkVersion; others: { fork?: ChatFork; rest: ChatFork[] } } {
  const at = index === -1 ? conversation.messages.length : index;
  const prefix = conversation.messages.slice(0, at);
  const messages = conversation.messages.slice(at);
  const after = prefix.at(-1)?.id ?? '';
  const inTail = new Set(messages.map((message) => message.id));
  const all = conversation.forks ?? [];
  const nested = all.filter((fork) => inTail.has(fork.after));
  const fork = all.find((candidate) => candidate.after === after);
  const rest = all.filter((candidate) => candidate !== fork && !inTail.has(candidate.after));
  return {
    prefix,
    tail: nested.length === 0 ? { messages } : { messages, forks: nested },
    others: { ...(fork !== undefined ? { fork } : {}), rest },
  };
}

/** A failed mark on the message before the position belongs to the version that got no reply, not to one that did. */
function answered(prefix: ChatMessage[], chosen: ChatForkVersion): ChatMessage[] {
  const last = prefix.at(-1);
  if (last?.failed === undefined || chosen.messages.length === 0) return prefix;
  const { failed: _cleared, ...rest } = last;
  return [...prefix.slice(0, -1), rest];
}
