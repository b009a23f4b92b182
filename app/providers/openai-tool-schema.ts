// MCP tools describe their arguments with full JSON Schema (draft 2020-12 by
// default, often written by zod-to-json-schema or pydantic: `$schema`, `$defs`
// with `$ref`s, `additionalProperties`, `const`, `format: "uri"`…). OpenAI and
// most servers take that as it is; Gemini's OpenAI-compatible endpoint and
// some vLLM builds take only an OpenAPI-like subset and refuse the whole
// request for one unknown keyword ("Unknown name \"$schema\" at
// 'tools[0].function_declarations[0].parameters'").
//
// Two steps, as LiteLLM and the multi-provider apps do:
// - portableSchema, for every OpenAI-compatible target: drops what only
//   identifies or annotates a schema ($schema, $id, $comment…) and inlines
//   local `$ref`s, which changes no meaning;
// - strictSchema, for targets known (or found) to be strict: keeps only the
//   keywords of that subset and rewrites the rest where it can (`const` →
//   `enum`, `oneOf` → `anyOf`, `type: [x, "null"]` → `nullable`); what it
//   cannot express (an unknown `format`, `exclusiveMinimum`, a map's value
//   schema) is said in the description, so the model still knows.

type Json = unknown;
type Schema = Record<string, Json>;

/** Keywords that name or annotate a schema and constrain nothing. */
const IDENTITY_KEYWORDS = new Set(['$schema', '$id', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary']);

/** What Gemini's function declarations take (its OpenAPI 3.0 Schema subset). */
const STRICT_KEYWORDS = new Set([
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
]);

/** The `format`s the strict subset knows, per type; any other goes into the description. */
const STRICT_FORMATS: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/** Annotations dropped without a word in strict mode (they constrain nothing). */
const STRICT_SILENT = new Set([
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
  '$defs',
  'definitions',
]);

const NOTHING: ReadonlySet<string> = new Set();
/** Definitions are read where a $ref points, not walked: what is left of them (recursive ones) goes out as written. */
const DEFINITIONS: ReadonlySet<string> = new Set(['$defs', 'definitions']);

function isSchema(value: Json): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer into the root) points at. */
function resolvePointer(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let node: Json = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, Json>)[key];
  }
  return isSchema(node) ? node : undefined;
}

/** Subschemas sit under these keywords as a schema, a list of schemas, or a map of them. */
function mapSubschemas(schema: Schema, map: (child: Json) => Json, keep: ReadonlySet<string> = NOTHING): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (keep.has(key)) out[key] = value;
    else if (
      (key === 'properties' ||
        key === 'patternProperties' ||
        key === '$defs' ||
        key === 'definitions' ||
        key === 'dependentSchemas') &&
      isSchema(value)
    ) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, map(child)]));
    } else if (
      (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') &&
      Array.isArray(value)
    ) {
      out[key] = value.map(map);
    } else if (
      [
        'items',
        'additionalProperties',
        'not',
        'if',
        'then',
        'else',
        'contains',
        'propertyNames',
        'unevaluatedProperties',
        'unevaluatedItems',
      ].includes(key) &&
      isSchema(value)
    ) {
      out[key] = map(value);
    } else out[key] = value;
  }
  return out;
}

/**
 * For every OpenAI-compatible target: no identity keywords, local `$ref`s
 * inlined (a recursive one stays a `$ref`, with the `$defs` it needs).
 */
export function portableSchema(schema: Schema): Schema {
  let unresolved = false;
  const walk = (node: Json, inlining: readonly string[]): Json => {
    if (!isSchema(node)) return node;
    let current: Schema = node;
    const ref = current['$ref'];
    if (typeof ref === 'string') {
      const target = resolvePointer(schema, ref);
      if (target === undefined || inlining.includes(ref)) {
        unresolved = true;
      } else {
        // Keywords beside a $ref apply too (2020-12): the target's, then the siblings' (a description wins).
        const { $ref: _ref, ...siblings } = current;
        const { $defs: _defs, definitions: _definitions, ...body } = target;
        return walk({ ...body, ...siblings }, [...inlining, ref]);
      }
    }
    current = Object.fromEntries(Object.entries(current).filter(([key]) => !IDENTITY_KEYWORDS.has(key)));
    return mapSubschemas(current, (child) => walk(child, inlining), DEFINITIONS);
  };
  const result = walk(schema, []) as Schema;
  if (!unresolved) {
    delete result['$defs'];
    delete result['definitions'];
  }
  return result;
}

function withNote(schema: Schema, note: string): Schema {
  const description =
    typeof schema['description'] === 'string' && schema['description'].trim() !== ''
      ? schema['description'].trim()
      : '';
  const joined = description === '' ? note : `${description}${/[.!?]$/.test(description) ? '' : '.'} ${note}`;
  return { ...schema, description: joined };
}

function describeValue(value: Json): string {
  return JSON.stringify(value) ?? String(value);
}

/** One schema node in the strict subset (children first). */
function strictNode(node: Json): Json {
  if (!isSchema(node)) return node;
  let schema: Schema = mapSubschemas(node, strictNode);
  const notes: string[] = [];

  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    schema = typeof value === 'string' ? { ...rest, enum: [value] } : rest;
    if (typeof value !== 'string') notes.push(`Always ${describeValue(value)}.`);
  }
  if (Array.isArray(schema['oneOf'])) {
    const { oneOf, ...rest } = schema;
    schema = { ...rest, anyOf: [...(Array.isArray(rest['anyOf']) ? rest['anyOf'] : []), ...oneOf] };
  }
  if (Array.isArray(schema['type'])) {
    const types = schema['type'].filter((type): type is string => typeof type === 'string');
    const others = types.filter((type) => type !== 'null');
    const { type: _type, ...rest } = schema;
    if (others.length === 1) schema = { ...rest, type: others[0] };
    else if (others.length > 1) schema = { ...rest, anyOf: others.map((type) => ({ type })) };
    else schema = rest;
    if (types.includes('null')) schema['nullable'] = true;
  }
  if (Array.isArray(schema['allOf'])) {
    // Object parts merge into one; anything else cannot be said in the subset.
    const parts = schema['allOf'];
    if (parts.every((part) => isSchema(part) && (part['type'] === undefined || part['type'] === 'object'))) {
      const { allOf: _allOf, ...rest } = schema;
      const merged = parts as Schema[];
      const properties = Object.assign(
        {},
        isSchema(rest['properties']) ? rest['properties'] : {},
        ...merged.map((part) => (isSchema(part['properties']) ? part['properties'] : {})),
      );
      const required = [
        ...new Set([
          ...(Array.isArray(rest['required']) ? rest['required'] : []),
          ...merged.flatMap((part) => (Array.isArray(part['required']) ? part['required'] : [])),
        ]),
      ];
      schema = { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    }
  }
  const type = typeof schema['type'] === 'string' ? schema['type'] : undefined;
  if (typeof schema['format'] === 'string' && !(STRICT_FORMATS[type ?? '']?.includes(schema['format']) ?? false)) {
    notes.push(`Format: ${schema['format']}.`);
    delete schema['format'];
  }
  // The subset's enums are lists of strings.
  if (Array.isArray(schema['enum']) && !schema['enum'].every((value) => typeof value === 'string')) {
    notes.push(`One of: ${schema['enum'].map(describeValue).join(', ')}.`);
    delete schema['enum'];
  }
  if (isSchema(schema['additionalProperties']))
    notes.push(`Each value: ${describeValue(schema['additionalProperties'])}.`);
  if (typeof schema['$ref'] === 'string') {
    // Only a recursive reference is left (portableSchema inlined the others).
    // No `type: object` here: the subset wants an object's properties listed, and these go on without end.
    notes.push(`Same shape as ${schema['$ref'].replace(/^#\/(\$defs|definitions)\//, '')}.`);
  }
  const dropped: string[] = [];
  const kept: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (STRICT_KEYWORDS.has(key)) kept[key] = value;
    else if (key === 'additionalProperties' || key === '$ref' || STRICT_SILENT.has(key) || IDENTITY_KEYWORDS.has(key))
      continue;
    else if (!(
      key === 'not' ||
      key === 'if' ||
      key === 'then' ||
      key === 'else' ||
      isSchema(value) ||
      Array.isArray(value)
    ))
      dropped.push(`${key} ${describeValue(value)}`);
    else dropped.push(key);
  }
  if (dropped.length > 0) notes.push(`Also: ${dropped.join(', ')}.`);
  return notes.length > 0 ? withNote(kept, notes.join(' ')) : kept;
}

/**
 * For strict targets (Gemini's OpenAI-compatible endpoint and the like): only
 * the OpenAPI-like subset, the rest said in descriptions. undefined for a tool
 * without parameters, which such a target wants left out entirely ("properties:
 * should be non-empty for OBJECT type").
 */
export function strictSchema(schema: Schema): Schema | undefined {
  const result = strictNode(portableSchema(schema)) as Schema;
  const properties = result['properties'];
  if (result['type'] === 'object' && (!isSchema(properties) || Object.keys(properties).length === 0)) return undefined;
  return result;
}
