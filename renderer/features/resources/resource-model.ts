import type { ResourcePart } from '../../../shared/contract/resources';
import type { ChatAttachment } from '../../../shared/domain/chat';
import type { ServerState } from '../../../shared/domain';

/** One variable of a URI template, with the RFC 6570 operator of the expression it sits in. */
export interface TemplateVariable {
  name: string;
  operator: '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** The variables a template asks for, in order, without duplicates ({id}, {+path}, {?q,page}, {name*}). */
export function templateVariables(uriTemplate: string): TemplateVariable[] {
  const seen = new Set<string>();
  const variables: TemplateVariable[] = [];
  for (const match of uriTemplate.matchAll(EXPRESSION)) {
    const operator = (match[1] ?? '') as TemplateVariable['operator'];
    for (const raw of (match[2] ?? '').split(',')) {
      const name = raw.replace(/[*]$/, '').replace(/:\d+$/, '').trim();
      if (name === '' || seen.has(name)) continue;
      seen.add(name);
      variables.push({ name, operator });
    }
  }
  return variables;
}

/** Fill in a template (RFC 6570 levels 1–3 for string values); empty values are left out as the RFC says. */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): string {
  return uriTemplate.replace(EXPRESSION, (_whole, op: string, list: string) => {
    const names = list.split(',').map((raw) => raw.replace(/[*]$/, '').replace(/:\d+$/, '').trim());
    const reserved = op === '+' || op === '#';
    const encode = (value: string) => (reserved ? encodeURI(value) : encodeURIComponent(value));
    const present = names.filter((name) => (values[name] ?? '') !== '');
    if (present.length === 0) return '';
    switch (op) {
      case '?':
      case '&':
        return op + present.map((name) => `${name}=${encode(values[name] ?? '')}`).join('&');
      case ';':
        return present.map((name) => `;${name}=${encode(values[name] ?? '')}`).join('');
      case '/':
      case '.':
        return present.map((name) => op + encode(values[name] ?? '')).join('');
      case '#':
        return '#' + present.map((name) => encode(values[name] ?? '')).join(',');
      default:
        return present.map((name) => encode(values[name] ?? '')).join(',');
    }
  });
}

/** Which highlight.js grammar suits a text MIME type (undefined: plain text). */
export function languageForMime(mimeType: string | undefined): string | undefined {
  if (mimeType === undefined) return undefined;
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/markdown') return undefined;
  const byType: Record<string, string> = {
    'text/javascript': 'javascript',
    'application/javascript': 'javascript',
    'text/typescript': 'typescript',
    'application/typescript': 'typescript',
    'text/css': 'css',
    'text/html': 'xml',
    'text/xml': 'xml',
    'application/xml': 'xml',
    'image/svg+xml': 'xml',
    'text/x-python': 'python',
    'text/x-rust': 'rust',
    'text/x-go': 'go',
    'application/sql': 'sql',
    'text/x-sh': 'bash',
    'application/x-sh': 'bash',
    'text/yaml': 'yaml',
    'application/yaml': 'yaml',
    'text/x-diff': 'diff',
  };
  return byType[type] ?? (type.endsWith('+xml') ? 'xml' : undefined);
}

/** JSON shown indented; anything that does not parse is shown as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Whether a server declared a capability (and, with `flag`, that sub-feature of it, e.g. resources.subscribe). */
export function declaresCapability(server: ServerState, capability: string, flag?: string): boolean {
  // Declared by the live connection: a server that is not ready has declared nothing.
  if (server.status !== 'ready') return false;
  const value = server.capabilities?.[capability];
  if (value === undefined) return false;
  return (
    flag === undefined ||
    (typeof value === 'object' && value !== null && (value as Record<string, unknown>)[flag] === true)
  );
}

/** A read resource's parts as chat attachments; several parts are numbered after the resource's label. */
export function resourceAttachments(
  server: string,
  label: string,
  contents: readonly ResourcePart[],
): ChatAttachment[] {
  return contents.map((part, index) =>
    toAttachment(server, contents.length > 1 ? `${label} (${index + 1})` : label, part),
  );
}

/** A read resource as a chat attachment: images and audio as such, everything else as an embedded resource. */
export function toAttachment(server: string, label: string, part: ResourcePart): ChatAttachment {
  if (part.kind === 'blob' && part.mimeType?.startsWith('image/') === true) {
    return { server, label, content: { type: 'image', data: part.blob, mimeType: part.mimeType } };
  }
  if (part.kind === 'blob' && part.mimeType?.startsWith('audio/') === true) {
    return { server, label, content: { type: 'audio', data: part.blob, mimeType: part.mimeType } };
  }
  const mimeType = part.mimeType !== undefined ? { mimeType: part.mimeType } : {};
  const resource =
    part.kind === 'text'
      ? { uri: part.uri, ...mimeType, text: part.text }
      : { uri: part.uri, ...mimeType, blob: part.blob };
  return { server, label, content: { type: 'resource', resource } };
}

/** File name for saving a binary part: the URI's last segment, else "resource". */
export function downloadName(uri: string): string {
  const last = uri
    .split(/[/?#]/)
    .filter((segment) => segment !== '')
    .at(-1);
  return last !== undefined && last !== '' && !last.endsWith(':') ? decodeURIComponent(last) : 'resource';
}
