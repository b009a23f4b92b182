import type { ResourceInfo } from '../../../shared/contract/resources';

/**
 * A resource of a ready server, as the `@` menu offers it — or a resource
 * template (then `uri` is the URI template, filled in before it is read).
 */
export interface MentionResource extends ResourceInfo {
  server: string;
  template?: {
    /** Whether the server declared completions, so the variables get suggestions. */
    completions: boolean;
  };
}

/** The longest "@query" still treated as a search (longer is ordinary text). */
const MAX_QUERY_LENGTH = 80;

/** Where the `@` search sits in the draft: the query after `@`, and the span to replace when a resource is chosen. */
export interface MentionToken {
  query: string;
  start: number;
  end: number;
}

/**
 * The `@` search the caret is in: an `@` at the start of the draft or after
 * white space, followed by the text up to the caret (no white space, so an
 * e-mail address or a finished word ends the search). Undefined when the
 * caret is not in one.
 */
export function mentionToken(text: string, caret: number): MentionToken | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (match === null) return undefined;
  const query = match[2] ?? '';
  if (query.length > MAX_QUERY_LENGTH) return undefined;
  const start = before.length - query.length - 1;
  return { query, start, end: caret };
}

/** The draft with the `@query` taken out (the resource goes on a chip instead), and where the caret goes. */
export function removeMention(text: string, token: MentionToken): { text: string; caret: number } {
  const head = text.slice(0, token.start);
  const tail = text.slice(token.end);
  // One space is enough where the mention stood between two words.
  const joined = head.endsWith(' ') && tail.startsWith(' ') ? head + tail.slice(1) : head + tail;
  return { text: joined, caret: head.length };
}

/** What the menu and the chip call a resource. */
export function mentionLabel(resource: Pick<ResourceInfo, 'name' | 'title' | 'uri'>): string {
  if (resource.title !== undefined && resource.title.trim() !== '') return resource.title;
  return resource.name.trim() !== '' ? resource.name : resource.uri;
}

/** A stable key: URIs are unique per server only. */
export function mentionKey(resource: Pick<MentionResource, 'server' | 'uri' | 'template'>): string {
  return `${resource.template === undefined ? 'r' : 't'}\u0000${resource.server}\u0000${resource.uri}`;
}

function rank(resource: MentionResource, word: string): number | undefined {
  const names = [resource.name.toLowerCase(), mentionLabel(resource).toLowerCase()];
  if (names.some((name) => name.startsWith(word))) return 0;
  if (names.some((name) => name.split(/[\s_\-./:]+/).some((part) => part.startsWith(word)))) return 1;
  if (names.some((name) => name.includes(word))) return 2;
  if (resource.uri.toLowerCase().includes(word)) return 3;
  if (resource.server.toLowerCase().includes(word)) return 4;
  if ((resource.description ?? '').toLowerCase().includes(word)) return 5;
  return undefined;
}

/** The longest list the menu shows; the person narrows it by typing. */
export const MAX_MENTION_MATCHES = 50;

/**
 * Resources matching the query (name and title first, then URI, server,
 * description), best first; ties keep the servers' order.
 */
export function filterMentions(resources: readonly MentionResource[], query: string): MentionResource[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return resources.slice(0, MAX_MENTION_MATCHES);
  const scored: { resource: MentionResource; score: number; index: number }[] = [];
  resources.forEach((resource, index) => {
    let score = 0;
    for (const word of words) {
      const wordRank = rank(resource, word);
      if (wordRank === undefined) return;
      score += wordRank;
    }
    scored.push({ resource, score, index });
  });
  return scored
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, MAX_MENTION_MATCHES)
    .map(({ resource }) => resource);
}
