import { errorMessage } from '../../../shared/error-message';
import { translate } from '../../i18n/use-t';
import { argumentChecker } from '../pending/argument-check';

/** A placeholder of the schema's type for a required property without a default or an example. */
function placeholder(schema: Record<string, unknown>): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return sampleInput(schema);
    default:
      return null;
  }
}

/**
 * Sample arguments for a preview from a tool's input schema: each property's
 * `default`, else its first `examples` entry, else (when required) a
 * placeholder of its type; optional properties without either are left out.
 */
export function sampleInput(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (
    typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}
  ) as Record<string, unknown>;
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [],
  );
  const sample: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(properties)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const property = raw as Record<string, unknown>;
    if ('default' in property) sample[name] = property.default;
    else if (Array.isArray(property.examples) && property.examples.length > 0) sample[name] = property.examples[0];
    else if (required.has(name)) sample[name] = placeholder(property);
  }
  return sample;
}

/** The preview's arguments as typed: parsed, an object, and checked against the schema (problems listed). */
export function parsePreviewInput(
  text: string,
  schema: Record<string, unknown>,
): { ok: true; value: Record<string, unknown>; issues: string[] } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: translate('apps.preview.notJson', { error: errorMessage(error) }) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: translate('apps.preview.notObject') };
  const input = value as Record<string, unknown>;
  const check = argumentChecker(schema)(input);
  return { ok: true, value: input, issues: 'issues' in check ? check.issues : [] };
}
