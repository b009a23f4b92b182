import type { JsonObject } from '../../../shared/domain/consent';
import type { PendingKind, PendingRequest } from '../../../shared/domain/pending';
import { errorMessage } from '../../../shared/error-message';
import { showableName } from '../../../shared/domain/showable-name';

/** What each kind is called in the tray and in dialog titles. */
export const KIND_LABELS: Record<PendingKind, { one: string; many: string }> = {
  'tool-call': { one: 'Tool call', many: 'Tool calls' },
  sampling: { one: 'Sampling request', many: 'Sampling requests' },
  'sampling-answer': { one: 'Sampling answer', many: 'Sampling answers' },
  elicitation: { one: 'Question', many: 'Questions' },
  'root-consent': { one: 'Folder access', many: 'Folder access requests' },
  skill: { one: 'Skill', many: 'Skills' },
};

/** One line about what a request is for, for the tray. */
export function describeRequest(request: PendingRequest): string {
  switch (request.kind) {
    case 'tool-call':
      // The tool's identifier, never its title: a title is the server's own words and could read like another server's tool.
      return request.payload.requestedBy === 'app'
        ? `Run ${showableName(request.payload.tool)} (asked by its app)`
        : `Run ${showableName(request.payload.tool)}`;
    case 'sampling':
      return 'Asks the model for a completion';
    case 'sampling-answer':
      return 'Review the generated answer';
    case 'elicitation':
      return request.payload.mode === 'url'
        ? `Open ${showableName(request.payload.domain)}`
        : showableName(request.payload.message);
    case 'root-consent':
      return request.payload.roots.length === 1
        ? `See the folder ${showableName(request.payload.roots[0]!.name)}`
        : `See ${request.payload.roots.length} folders`;
    case 'skill':
      return request.payload.stage === 'cross-server'
        ? `Let skill ${showableName(request.payload.skill)} refer to other servers`
        : `Load skill ${showableName(request.payload.skill)}`;
  }
}

/** A short, readable age: “just now”, “42 s”, “3 min”, “2 h”. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
}

/** Outcome of reading the arguments editor: a JSON object, or why it is not one. */
export type ArgumentsParse = { ok: true; value: JsonObject } | { ok: false; error: string };

/** Reads edited tool arguments; only a JSON object may be sent (tools take named arguments). */
export function parseArgumentsText(text: string): ArgumentsParse {
  if (text.trim() === '') return { ok: false, error: 'Enter the arguments as a JSON object, e.g. {} for none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    return { ok: false, error: `This is not valid JSON: ${reason}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { ok: false, error: `The arguments must be a JSON object ({ … }), not ${what}` };
  }
  return { ok: true, value: value as JsonObject };
}

/** JSON with sorted keys, so reordered but equal arguments do not count as an edit. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Longest argument text a list shows; the whole is one click away (the call's own dialog). */
const SUMMARY_LIMIT = 240;

/** A call's arguments on one line, as the review list shows them ("no arguments" when empty). */
export function argumentsSummary(args: JsonObject): string {
  const text = JSON.stringify(args);
  if (text === '{}') return 'no arguments';
  return text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT - 1)}…` : text;
}
