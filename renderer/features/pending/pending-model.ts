import type { JsonObject } from '../../../shared/domain/consent';
import type { PendingKind, PendingRequest } from '../../../shared/domain/pending';
import { errorMessage } from '../../../shared/error-message';
import { showableName } from '../../../shared/domain/showable-name';
import { translate } from '../../i18n/use-t';

/** What a kind is called in the tray ("Tool call"), in the active language. */
export function kindLabel(kind: PendingKind): string {
  return translate(`pending.kind.${kind}`);
}

/** How many of a kind wait ("2 tool calls"), in the active language. */
export function kindCount(kind: PendingKind, count: number): string {
  return translate(`pending.count.${kind}`, { count });
}

/** One line about what a request is for, for the tray. */
export function describeRequest(request: PendingRequest): string {
  switch (request.kind) {
    case 'tool-call':
      // The tool's identifier, never its title: a title is the server's own words and could read like another server's tool.
      return translate(request.payload.requestedBy === 'app' ? 'pending.describe.runFromApp' : 'pending.describe.run', {
        tool: showableName(request.payload.tool),
      });
    case 'sampling':
      return translate('pending.describe.sampling');
    case 'sampling-answer':
      return translate('pending.describe.samplingAnswer');
    case 'elicitation':
      return request.payload.mode === 'url'
        ? translate('pending.describe.open', { domain: showableName(request.payload.domain) })
        : showableName(request.payload.message);
    case 'root-consent':
      return request.payload.roots.length === 1
        ? translate('pending.describe.folder', { name: showableName(request.payload.roots[0]!.name) })
        : translate('pending.describe.folders', { count: request.payload.roots.length });
    case 'skill':
      return translate(
        request.payload.stage === 'cross-server' ? 'pending.describe.skillCrossServer' : 'pending.describe.skillLoad',
        { skill: showableName(request.payload.skill) },
      );
  }
}

/** A short, readable age in the active language: “just now”, “42 s”, “3 min”, “2 h”. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const [unit, n] =
    seconds < 5
      ? ['now', 0]
      : seconds < 60
        ? ['s', seconds]
        : minutes < 60
          ? ['min', minutes]
          : hours < 48
            ? ['h', hours]
            : ['d', Math.floor(hours / 24)];
  return translate('pending.age', { unit, n });
}

/** Outcome of reading the arguments editor: a JSON object, or why it is not one. */
export type ArgumentsParse = { ok: true; value: JsonObject } | { ok: false; error: string };

/** Reads edited tool arguments; only a JSON object may be sent (tools take named arguments). */
export function parseArgumentsText(text: string): ArgumentsParse {
  if (text.trim() === '') return { ok: false, error: translate('pending.args.empty') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    return { ok: false, error: translate('pending.args.invalid', { reason }) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // The JSON type's name (string, number, boolean) is the language's own word in every locale.
    const what = value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
    return { ok: false, error: translate('pending.args.notObject', { what }) };
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
  if (text === '{}') return translate('pending.args.none');
  return text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT - 1)}…` : text;
}
