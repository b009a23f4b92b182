// What a strict OpenAI-compatible endpoint (Gemini's) says about a tool's
// parameters schema, written from its documentation and its error messages,
// apart from Berth's own code so a test of that code can fail.

/** The keywords of Gemini's Schema object (an OpenAPI 3.0 subset). */
const KNOWN = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
  'propertyOrdering',
]);
const FORMATS: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Gemini's own words for each thing it refuses in one schema ("Unknown name \"$schema\" at '…'"); empty when it takes it. */
export function strictSchemaProblems(schema: unknown, at = 'parameters'): string[] {
  if (!isObject(schema)) return [`Invalid value at '${at}': not a schema object`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!KNOWN.has(key))
      problems.push(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
    else if (key === 'type' && (typeof value !== 'string' || !TYPES.has(value)))
      problems.push(`Invalid value at '${at}.type': ${JSON.stringify(value)}`);
    else if (key === 'enum' && (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')))
      problems.push(`Invalid value at '${at}.enum': only strings`);
    else if (key === 'format' && !(FORMATS[String(schema['type'])]?.includes(String(value)) ?? false))
      problems.push(
        `Invalid value at '${at}.format': ${JSON.stringify(value)} is not supported for ${String(schema['type'])}`,
      );
  }
  if (
    schema['type'] === 'object' &&
    (!isObject(schema['properties']) || Object.keys(schema['properties']).length === 0)
  )
    problems.push(`* ${at}.properties: should be non-empty for OBJECT type`);
  if (isObject(schema['properties']))
    for (const [name, child] of Object.entries(schema['properties']))
      problems.push(...strictSchemaProblems(child, `${at}.properties[${name}].value`));
  if (schema['items'] !== undefined) problems.push(...strictSchemaProblems(schema['items'], `${at}.items`));
  if (Array.isArray(schema['anyOf']))
    schema['anyOf'].forEach((child, index) => problems.push(...strictSchemaProblems(child, `${at}.any_of[${index}]`)));
  return problems;
}
