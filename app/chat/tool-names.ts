import { createHash } from 'node:crypto';

/**
 * The Messages API's rule for a custom tool's `name`: `^[a-zA-Z0-9_-]{1,64}$`
 * (API reference, Tool.name). The installed `@anthropic-ai/sdk` types carry no
 * pattern for `Tool.name`; its managed-agents tool allows 1–128 of the same
 * characters, so 64 is the stricter limit and the one obeyed here.
 */
export const API_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const API_TOOL_NAME_MAX_LENGTH = 64;

/** Joins server and tool in the readable form `server__tool`. */
export const TOOL_NAME_SEPARATOR = '__';

const HASH_LENGTH = 8;

/** A tool as the host knows it: which server, which MCP tool name. */
export interface ToolRef {
  server: string;
  tool: string;
}

/** A tool with the name the model sees. */
export interface NamedToolRef extends ToolRef {
  apiName: string;
}

/** Letters with accents lose them; everything else outside the API charset becomes `_`. */
export function sanitizeToolNamePart(part: string): string {
  return part
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9_-]/g, '_');
}

function shortHash(ref: ToolRef): string {
  // NUL cannot occur in either name, so ("a", "bc") and ("ab", "c") hash differently.
  return createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, HASH_LENGTH);
}

/**
 * Readable `server__tool` names are used as they are only when they can be
 * decoded without doubt: valid as written, and the server part holds no `__`
 * and does not end in `_` (so the first `__` is the separator). Every other
 * name gets a hash of the real names as a suffix, truncated to fit.
 */
function needsHash(ref: ToolRef, readable: string): boolean {
  return (
    readable !== `${ref.server}${TOOL_NAME_SEPARATOR}${ref.tool}` ||
    !API_TOOL_NAME_PATTERN.test(readable) ||
    ref.server.includes(TOOL_NAME_SEPARATOR) ||
    ref.server.endsWith('_') ||
    ref.server.length === 0
  );
}

/**
 * The name one tool gets on its own, independent of every other tool: the
 * same (server, tool) always maps to the same name.
 */
export function candidateToolName(ref: ToolRef): string {
  const readable = `${sanitizeToolNamePart(ref.server)}${TOOL_NAME_SEPARATOR}${sanitizeToolNamePart(ref.tool)}`;
  if (!needsHash(ref, readable)) return readable;
  const suffix = `_${shortHash(ref)}`;
  return `${readable.slice(0, API_TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
}

function refKey(ref: ToolRef): string {
  return `${ref.server}\u0000${ref.tool}`;
}

/**
 * The two-way map between real tools and API tool names for one request.
 * Candidates are unique by construction except for hash collisions (or a
 * readable name equal to another tool's hashed one); those get a counter
 * suffix, assigned in sorted order so the result depends only on the set.
 */
export class ToolNameMap {
  private readonly byApiName = new Map<string, ToolRef>();
  private readonly byRef = new Map<string, string>();

  private constructor() {}

  /** `reserved`: names never handed out (host tools' names, app/chat/host-tools), so a tool can never take one. */
  static build(refs: readonly ToolRef[], reserved: Iterable<string> = []): ToolNameMap {
    const map = new ToolNameMap();
    const unique = new Map<string, ToolRef>();
    for (const ref of refs) unique.set(refKey(ref), { server: ref.server, tool: ref.tool });
    const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const taken = new Set<string>(reserved);
    const deferred: Array<[string, ToolRef, string]> = [];
    // Readable/hashed candidates first, so a collision never moves a name that
    // already had its own; the losers are renamed afterwards.
    for (const [key, ref] of sorted) {
      const candidate = candidateToolName(ref);
      if (taken.has(candidate)) {
        deferred.push([key, ref, candidate]);
        continue;
      }
      taken.add(candidate);
      map.add(key, ref, candidate);
    }
    for (const [key, ref, candidate] of deferred) {
      let name = candidate;
      for (let counter = 2; taken.has(name); counter += 1) {
        const suffix = `_${counter}`;
        name = `${candidate.slice(0, API_TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
      }
      taken.add(name);
      map.add(key, ref, name);
    }
    return map;
  }

  private add(key: string, ref: ToolRef, apiName: string): void {
    this.byApiName.set(apiName, ref);
    this.byRef.set(key, apiName);
  }

  /** The API name of a tool in this map, or undefined. */
  apiName(server: string, tool: string): string | undefined {
    return this.byRef.get(refKey({ server, tool }));
  }

  /** The real server and tool behind an API name, or undefined when the model made it up. */
  resolve(apiName: string): ToolRef | undefined {
    const ref = this.byApiName.get(apiName);
    return ref === undefined ? undefined : { ...ref };
  }

  entries(): NamedToolRef[] {
    return [...this.byApiName.entries()].map(([apiName, ref]) => ({ ...ref, apiName }));
  }

  get size(): number {
    return this.byApiName.size;
  }
}
