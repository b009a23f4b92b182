import { candidateToolName, TOOL_NAME_SEPARATOR } from '../chat/tool-names';

/** What another server offers, as a skill's text could name it. */
export interface OtherServer {
  server: string;
  tools: readonly string[];
  /** Folders shared with that server and not with the skill's own (absolute paths). */
  roots: readonly string[];
}

/** One other server a skill's text directs the model to. */
export interface CrossReference {
  server: string;
  tools: string[];
  roots: string[];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `word` appears in `text` as a whole token (not inside a longer identifier). */
function mentions(text: string, word: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_-])${escape(word)}(?![A-Za-z0-9_-])`).test(text);
}

/**
 * Whether the text names `tool` of `server`: bare (at least 4 characters), or
 * qualified the way the model sees it (`server__tool`, or the hashed API name
 * Berth gives a name that does not fit), which is unambiguous at any length.
 */
function namesTool(text: string, server: string, tool: string): boolean {
  if (tool.length >= 4 && mentions(text, tool)) return true;
  return [`${server}${TOOL_NAME_SEPARATOR}${tool}`, candidateToolName({ server, tool })].some((name) =>
    mentions(text, name),
  );
}

/**
 * The other servers whose tools or folders a skill's text names. A skill is
 * its server's words; when they steer the model toward another server's
 * tools or files, that is a cross-server reach the person must allow (the
 * spec's confused-deputy concern). Bare tool names shorter than 4 characters
 * are skipped: words like "get" or "ls" would match ordinary prose.
 */
export function crossServerReferences(text: string, others: readonly OtherServer[]): CrossReference[] {
  const found: CrossReference[] = [];
  for (const other of others) {
    const tools = other.tools.filter((tool) => namesTool(text, other.server, tool));
    const roots = other.roots.filter((root) => root.length > 1 && text.includes(root));
    if (tools.length > 0 || roots.length > 0)
      found.push({ server: other.server, tools: [...new Set(tools)].sort(), roots: [...new Set(roots)].sort() });
  }
  return found;
}
