import { APP_UI_MIME_TYPE, APP_UI_PERMISSIONS, AppUiCspSchema, MAX_APP_HTML_BYTES } from '../../shared/domain/app-ui';
import type { AppUiCsp, AppUiPermission } from '../../shared/domain/app-ui';
import { appsError, uiUnusable } from '../../shared/domain/apps-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { HostError } from '../../shared/result';
import { base64Size } from '../workspace/resource-service';

// A UI resource as a server sends it (resources/read, and its resources/list
// entry), checked before anything of it reaches the renderer or the sandbox.
// The server may be hostile: every shape, size and string is checked, and a
// resource Berth cannot render safely is refused in words (SERVER_ERROR),
// never half-used.

/** What `_meta.ui` of a UI resource says about rendering it. */
export interface UiResourceMeta {
  csp: AppUiCsp;
  permissions: AppUiPermission[];
  prefersBorder?: boolean;
}

/** The checked content of one UI resource, before it is stamped with its server and time. */
export interface UiResourceContent {
  html: string;
  /** The item's own `_meta.ui`, when it had one (else the resources/list entry's is used). */
  meta?: UiResourceMeta;
}

/** More content items than this in one read is not a UI resource. */
const MAX_CONTENT_ITEMS = 20;
/** A CSP source is one token: no whitespace, quotes, commas or semicolons that would start another directive. */
const CSP_SOURCE = /^[A-Za-z0-9*][A-Za-z0-9.*:/_\-[\]%~+@]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(server: string, uri: string, why: CodedText): HostError {
  return HostError.coded('SERVER_ERROR', uiUnusable(server, uri, why));
}

/** `text/html;profile=mcp-app`, however the server spaced or cased it. */
function isAppMimeType(value: unknown): boolean {
  return typeof value === 'string' && value.replace(/\s+/g, '').toLowerCase() === APP_UI_MIME_TYPE;
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  const text = typeof value === 'string' ? JSON.stringify(value) : Array.isArray(value) ? 'a list' : typeof value;
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Megabytes with one decimal, as the refusal gives them. */
function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

function tooLarge(bytes: number): CodedText {
  return appsError('apps-errors.ui-too-large', { size: megabytes(bytes), max: megabytes(MAX_APP_HTML_BYTES) });
}

/** Base64 → UTF-8 text, refusing anything that is not exactly that. */
function decodeBlob(server: string, uri: string, blob: string): string {
  const clean = blob.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean))
    throw refuse(server, uri, appsError('apps-errors.ui-blob-not-base64', {}));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(clean, 'base64'));
  } catch {
    throw refuse(server, uri, appsError('apps-errors.ui-blob-not-utf8', {}));
  }
}

/**
 * `_meta.ui` of a resource: `csp` (lists of origins, each one CSP source
 * token), `permissions` (the spec's object `{ camera: {} … }`, or a list of
 * names; unknown ones ignored) and `prefersBorder`. Absent parts mean the
 * defaults: no network, no permissions.
 */
export function parseUiResourceMeta(server: string, uri: string, raw: unknown): UiResourceMeta {
  if (!isRecord(raw)) throw refuse(server, uri, appsError('apps-errors.ui-meta-not-object', { value: describe(raw) }));
  let csp: AppUiCsp = {};
  if (raw.csp !== undefined) {
    const parsed = AppUiCspSchema.safeParse(raw.csp);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw refuse(
        server,
        uri,
        appsError('apps-errors.ui-csp-malformed', {
          path: issue?.path.join('.') || 'csp',
          detail: issue?.message ?? 'invalid',
        }),
      );
    }
    for (const [key, list] of Object.entries(parsed.data)) {
      const bad = (list ?? []).find((source) => !CSP_SOURCE.test(source));
      if (bad !== undefined)
        throw refuse(server, uri, appsError('apps-errors.ui-csp-not-origin', { key, value: describe(bad) }));
    }
    csp = parsed.data;
  }
  const permissions = parsePermissions(server, uri, raw.permissions);
  // A cosmetic hint: a value that is not a boolean is read as no preference.
  const prefersBorder = typeof raw.prefersBorder === 'boolean' ? { prefersBorder: raw.prefersBorder } : {};
  return { csp, permissions, ...prefersBorder };
}

function parsePermissions(server: string, uri: string, raw: unknown): AppUiPermission[] {
  if (raw === undefined) return [];
  const known = (name: unknown): name is AppUiPermission => (APP_UI_PERMISSIONS as readonly unknown[]).includes(name);
  if (Array.isArray(raw)) return [...new Set(raw.filter(known))];
  if (isRecord(raw))
    return APP_UI_PERMISSIONS.filter((name) => raw[name] !== undefined && raw[name] !== null && raw[name] !== false);
  throw refuse(server, uri, appsError('apps-errors.ui-permissions-not-object', { value: describe(raw) }));
}

/**
 * The HTML (and the item's `_meta.ui`) of a resources/read answer for `uri`:
 * the item for that URI (or the only item), of MIME type
 * `text/html;profile=mcp-app`, as text or a base64 blob, at most
 * MAX_APP_HTML_BYTES.
 */
export function parseUiResourceRead(server: string, uri: string, result: unknown): UiResourceContent {
  const contents = isRecord(result) ? result.contents : undefined;
  if (!Array.isArray(contents) || contents.length === 0)
    throw refuse(server, uri, appsError('apps-errors.ui-no-content', {}));
  if (contents.length > MAX_CONTENT_ITEMS)
    throw refuse(server, uri, appsError('apps-errors.ui-too-many-items', { count: contents.length }));
  const item: unknown =
    contents.find((entry) => isRecord(entry) && entry.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!isRecord(item)) throw refuse(server, uri, appsError('apps-errors.ui-uri-not-sent', { count: contents.length }));
  if (!isAppMimeType(item.mimeType))
    throw refuse(
      server,
      uri,
      appsError('apps-errors.ui-wrong-mime', { value: describe(item.mimeType), expected: APP_UI_MIME_TYPE }),
    );
  let html: string;
  if (typeof item.text === 'string') {
    const bytes = Buffer.byteLength(item.text, 'utf8');
    if (bytes > MAX_APP_HTML_BYTES) throw refuse(server, uri, tooLarge(bytes));
    html = item.text;
  } else if (typeof item.blob === 'string') {
    const bytes = base64Size(item.blob.replace(/\s+/g, ''));
    if (bytes > MAX_APP_HTML_BYTES) throw refuse(server, uri, tooLarge(bytes));
    html = decodeBlob(server, uri, item.blob);
  } else {
    throw refuse(server, uri, appsError('apps-errors.ui-no-body', {}));
  }
  if (html.trim() === '') throw refuse(server, uri, appsError('apps-errors.ui-empty', {}));
  const meta =
    isRecord(item._meta) && item._meta.ui !== undefined ? parseUiResourceMeta(server, uri, item._meta.ui) : undefined;
  return { html, ...(meta !== undefined ? { meta } : {}) };
}

/** The `_meta.ui` of `uri`'s entry in one resources/list page, if the page lists it with one. */
export function listedUiMeta(page: unknown, uri: string): unknown {
  const resources = isRecord(page) && Array.isArray(page.resources) ? page.resources : [];
  const entry: unknown = resources.find((resource) => isRecord(resource) && resource.uri === uri);
  return isRecord(entry) && isRecord(entry._meta) ? entry._meta.ui : undefined;
}
