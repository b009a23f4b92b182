import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { BundleField, BundleProblem, BundleValues } from '../../shared/contract/bundles';

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

async function checkPath(field: BundleField, path: string): Promise<string | undefined> {
  const what = field.type === 'directory' ? 'folder' : 'file';
  if (!isAbsolute(path)) return `${field.title}: enter the full path of a ${what} (got "${path}")`;
  try {
    const info = await stat(path);
    if (field.type === 'directory' ? !info.isDirectory() : !info.isFile())
      return `${field.title}: ${path} is not a ${what}`;
  } catch {
    return `${field.title}: there is no ${what} at ${path}`;
  }
  return undefined;
}

function numberText(field: BundleField, value: unknown): { text?: string; problem?: string } {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return { problem: `${field.title}: enter a number` };
  if (field.min !== undefined && number < field.min) return { problem: `${field.title}: enter at least ${field.min}` };
  if (field.max !== undefined && number > field.max) return { problem: `${field.title}: enter at most ${field.max}` };
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
    if (!known.has(key)) problems.push({ field: `values.${key}`, message: `The bundle has no setting "${key}"` });
  }
  for (const field of fields) {
    const own = Object.prototype.hasOwnProperty.call(entered, field.key) ? entered[field.key] : undefined;
    const value = isEmpty(own) ? field.default : own;
    const path = `values.${field.key}`;
    if (isEmpty(value)) {
      if (field.required) problems.push({ field: path, message: `${field.title} is required` });
      continue;
    }
    if (Array.isArray(value) && !field.multiple) {
      problems.push({ field: path, message: `${field.title} takes one value` });
      continue;
    }
    const items = (Array.isArray(value) ? value : [value]).filter((item) => item !== '');
    const texts: string[] = [];
    for (const item of items) {
      if (field.type === 'boolean') {
        if (typeof item === 'boolean' || item === 'true' || item === 'false') texts.push(String(item));
        else problems.push({ field: path, message: `${field.title}: choose on or off` });
      } else if (field.type === 'number') {
        const { text, problem } = numberText(field, item);
        if (problem !== undefined) problems.push({ field: path, message: problem });
        else if (text !== undefined) texts.push(text);
      } else if (typeof item !== 'string') {
        problems.push({ field: path, message: `${field.title}: enter text` });
      } else if (field.type === 'directory' || field.type === 'file') {
        const problem = await checkPath(field, item);
        if (problem !== undefined) problems.push({ field: path, message: problem });
        else texts.push(item);
      } else texts.push(item);
    }
    if (texts.length === items.length) values.set(field.key, field.multiple ? texts : texts[0]!);
  }
  return { values, problems };
}
