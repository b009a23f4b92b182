import type { ToolInfo } from '../domain/server';

// What a tool's `_meta` says about MCP Apps, read once when the tool list
// arrives (app/servers/berth-client.ts) and kept on ToolInfo. Everything here
// is the server's word: anything malformed is ignored rather than trusted.
// Pure and in shared/ so servers/ (which reads it) and apps/ (which acts on
// it) both depend on it instead of servers/ importing apps/.

export type ToolUi = NonNullable<ToolInfo['ui']>;
export type ToolAudience = 'model' | 'app';

/** The legacy flat key some servers still send beside (or instead of) `_meta.ui.resourceUri`. */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
const MAX_URI_LENGTH = 2000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `ui://` URI of sane length, else undefined (an app is only ever read from its own server's ui:// resources). */
export function uiResourceUri(value: unknown): string | undefined {
  if (
    typeof value !== 'string' ||
    value.length > MAX_URI_LENGTH ||
    !value.startsWith('ui://') ||
    value.length === 'ui://'.length
  )
    return undefined;
  return value;
}

/**
 * The UI part of a tool's `_meta`: `_meta.ui.resourceUri` (or the legacy
 * `_meta["ui/resourceUri"]`) when it is a `ui://` URI, and
 * `_meta.ui.visibility` when it is a list (unknown entries dropped; an
 * empty list means the tool is for neither). Undefined when neither is there.
 */
export function toolUiOf(meta: unknown): ToolUi | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = isRecord(meta.ui) ? meta.ui : undefined;
  const resourceUri = uiResourceUri(ui?.resourceUri) ?? uiResourceUri(meta[LEGACY_RESOURCE_URI_KEY]);
  const visibility = Array.isArray(ui?.visibility)
    ? [
        ...new Set(
          (ui.visibility as unknown[]).filter((entry): entry is ToolAudience => entry === 'model' || entry === 'app'),
        ),
      ]
    : undefined;
  if (resourceUri === undefined && visibility === undefined) return undefined;
  return { ...(resourceUri !== undefined ? { resourceUri } : {}), ...(visibility !== undefined ? { visibility } : {}) };
}

/** Who may call the tool: `_meta.ui.visibility`, or both when the server said nothing. */
export function toolAudience(tool: Pick<ToolInfo, 'ui'>): readonly ToolAudience[] {
  return tool.ui?.visibility ?? ['model', 'app'];
}

/** Whether the model may be offered the tool (an app-only tool never is). */
export function visibleToModel(tool: Pick<ToolInfo, 'ui'>): boolean {
  return toolAudience(tool).includes('model');
}

/** Whether an app of the tool's own server may call it. */
export function callableByApp(tool: Pick<ToolInfo, 'ui'>): boolean {
  return toolAudience(tool).includes('app');
}
