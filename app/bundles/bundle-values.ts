import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { BundleField, BundleProblem, BundleValues } from '../../shared/contract/bundles';
import { bundleError } from '../../shared/domain/bundle-errors';
import type { CodedText } from '../../shared/domain/host-wording';

/** A setting as substituted: one string, or a list (a `multiple` field). */
export type SettingValue = string | string[];

export interface CheckedValues {
  /** Every field that has a value (entered, else its default), as text. Unset optional fields are absent. */
  values: Map<string, SettingValue>;
  problems: BundleProblem[];
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.every((item) => item === ''));
}

/** A setting's problem: its field, the English and its code. */
export function settingProblem(field: string, words: CodedText): BundleProblem {
  return { field, message: words.text, hostMessage: words.hostMessage };
}

async function checkPath(field: BundleField, path: string): Promise<CodedText | undefined> {
  const facts = {
    title: field.title,
    kind: field.type === 'directory' ? ('folder' as const) : ('file' as const),
    path,
  };
  if (!isAbsolute(path)) return bundleError('bundle-errors.setting-path-relative', facts);
  try {
    const info = await stat(path);
    if (field.type === 'directory' ? !info.isDirectory() : !info.isFile())
      return bundleError('bundle-errors.setting-path-wrong-kind', facts);
  } catch {
    return bundleError('bundle-errors.setting-path-missing', facts);
  }
  return undefined;
}

function numberText(field: BundleField, value: unknown): { text?: string; problem?: CodedText } {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  const { title } = field;
  if (!Number.isFinite(number)) return { problem: bundleError('bundle-errors.setting-number', { title }) };
  if (field.min !== undefined && number < field.min)
    return { problem: bundleError('bundle-errors.setting-min', { title, min: field.min }) };
  if (field.max !== undefined && number > field.max)
    return { problem: bundleError('bundle-errors.setting-max', { title, max: field.max }) };
  return { text: String(number) };
}

/**
 * The person's settings checked against the bundle's `user_config`: required
 * ones present (a default counts), types right (numbers within min/max,
 * booleans, existing absolute folders and files), lists only where the field
 * takes several. Booleans become "true"/"false", as the MCPB spec says.
 */
export async function checkValues(fields: readonly BundleField[], entered: BundleValues): Promise<CheckedValues> {
  const values = new Map<string, SettingValue>();
  const problems: BundleProblem[] = [];
  const known = new Set(fields.map((field) => field.key));
  for (const key of Object.keys(entered)) {
    if (!known.has(key))
      problems.push(settingProblem(`values.${key}`, bundleError('bundle-errors.no-setting', { key })));
  }
  for (const field of fields) {
    const own = Object.prototype.hasOwnProperty.call(entered, field.key) ? entered[field.key] : undefined;
    const value = isEmpty(own) ? field.default : own;
    const path = `values.${field.key}`;
    const title = { title: field.title };
    if (isEmpty(value)) {
      if (field.required) problems.push(settingProblem(path, bundleError('bundle-errors.setting-required', title)));
      continue;
    }
    if (Array.isArray(value) && !field.multiple) {
      problems.push(settingProblem(path, bundleError('bundle-errors.setting-one-value', title)));
      continue;
    }
    const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
    const texts: string[] = [];
    for (const item of items) {
      if (field.type === 'boolean') {
        if (typeof item === 'boolean' || item === 'true' || item === 'false') texts.push(String(item));
        else problems.push(settingProblem(path, bundleError('bundle-errors.setting-on-off', title)));
      } else if (field.type === 'number') {
        const { text, problem } = numberText(field, item);
        if (problem !== undefined) problems.push(settingProblem(path, problem));
        else if (text !== undefined) texts.push(text);
      } else if (typeof item !== 'string') {
        problems.push(settingProblem(path, bundleError('bundle-errors.setting-text', title)));
      } else if (field.type === 'directory' || field.type === 'file') {
        const problem = await checkPath(field, item);
        if (problem !== undefined) problems.push(settingProblem(path, problem));
        else texts.push(item);
      } else texts.push(item);
    }
    if (texts.length === items.length) values.set(field.key, field.multiple ? texts : texts[0]!);
  }
  return { values, problems };
}
