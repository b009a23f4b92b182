import type { BundleField, BundleValues } from '../../../shared/contract/bundles';
import type { MessageId } from '../../i18n/message-ids';
import { translate, type Translate } from '../../i18n/use-t';
import { words, type Words } from '../../i18n/words';

/** Raw bytes per `bundles.upload` chunk: 3 MiB is 4 MiB of base64, the most one call may carry. */
export const UPLOAD_CHUNK_BYTES = 3 * 1024 * 1024;
/** The largest bundle the window sends (the host refuses past it as well). */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

/** What a field holds while the person edits: text (lists one item a line), or a switch. */
export type FieldDraft = string | boolean;
export type Drafts = Record<string, FieldDraft>;

/** A file dropped or picked: only a .mcpb is offered to the host. */
export function bundleFileProblem(file: { name: string; size: number }): Words | undefined {
  if (!/\.(mcpb|dxt)$/i.test(file.name)) return words('bundles.file.notBundle', { name: file.name });
  if (file.size > MAX_BUNDLE_BYTES)
    return words('bundles.file.tooBig', { name: file.name, max: String(MAX_BUNDLE_BYTES / (1024 * 1024)) });
  return undefined;
}

/** Bytes as base64 without building one huge string of char codes (spread arguments would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** The form's first values: each default (sensitive fields start empty: their default is not a secret anyone typed). */
export function initialDrafts(fields: readonly BundleField[]): Drafts {
  const drafts: Drafts = {};
  for (const field of fields) {
    const fallback = field.default;
    if (field.type === 'boolean') drafts[field.key] = fallback === true || fallback === 'true';
    else if (field.sensitive || fallback === undefined) drafts[field.key] = '';
    else drafts[field.key] = Array.isArray(fallback) ? fallback.join('\n') : String(fallback);
  }
  return drafts;
}

/** What is sent to the host: lists split by line, empty fields left out (the host then uses the default or says it is required). */
export function valuesFromDrafts(fields: readonly BundleField[], drafts: Drafts): BundleValues {
  const values: BundleValues = {};
  for (const field of fields) {
    const draft = drafts[field.key];
    if (draft === undefined) continue;
    if (typeof draft === 'boolean') {
      values[field.key] = draft;
      continue;
    }
    if (field.multiple) {
      const items = draft
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      if (items.length > 0) values[field.key] = items;
    } else if (draft.trim() !== '') {
      values[field.key] =
        field.type === 'number' && Number.isFinite(Number(draft))
          ? Number(draft)
          : field.sensitive
            ? draft
            : draft.trim();
    }
  }
  return values;
}

/** The hint under a field: what it takes, and where a sensitive value goes. */
export function fieldHint(field: BundleField, t: Translate = translate): string | undefined {
  const parts: string[] = [];
  const description = field.description.trim();
  if (description !== '') parts.push(/[.!?]$/.test(description) ? description : `${description}.`);
  if (field.multiple) parts.push(t('bundles.hint.multiple'));
  if (field.type === 'directory') parts.push(t('bundles.hint.directory'));
  if (field.type === 'file') parts.push(t('bundles.hint.file'));
  if (field.type === 'number' && (field.min !== undefined || field.max !== undefined)) {
    parts.push(
      field.min !== undefined && field.max !== undefined
        ? t('bundles.hint.range', { min: field.min, max: field.max })
        : field.min !== undefined
          ? t('bundles.hint.min', { min: field.min })
          : t('bundles.hint.max', { max: field.max ?? 0 }),
    );
  }
  if (field.sensitive) parts.push(t('bundles.hint.sensitive'));
  return parts.length === 0 ? undefined : parts.join(' ');
}

const SERVER_TYPES: Record<string, MessageId> = {
  node: 'bundles.type.node',
  python: 'bundles.type.python',
  uv: 'bundles.type.uv',
  binary: 'bundles.type.binary',
};

export function serverTypeLabel(type: string, t: Translate = translate): string {
  const id = SERVER_TYPES[type];
  return id === undefined ? type : t(id);
}
