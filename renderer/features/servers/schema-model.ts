import { translate } from '../../i18n/use-t';

/** One line of the readable schema table; nested properties carry a greater depth. */
export interface SchemaRow {
  /** Dotted path from the root, unique in the table (arrays add `[]`). */
  path: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  description?: string;
  enumValues?: string[];
  defaultValue?: string;
  /** Readable limits, e.g. `≥ 1`, `max 100 chars`, `pattern ^a`. */
  constraints: string[];
}

type JsonSchema = Record<string, unknown>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A short type word for a schema: `string (uri)`, `integer | null`, `array of object`, `#/$defs/Point`. */
export function describeType(schema: JsonSchema): string {
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  if ('const' in schema) return `const ${show(schema.const)}`;
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) {
    const members = union.filter(isSchema);
    // A titled enum (`oneOf` of consts) is one type with listed values, not a union of constants.
    if (members.length > 0 && members.every((m) => 'const' in m)) {
      return [...new Set(members.map((m) => (m.const === null ? 'null' : typeof m.const)))].join(' | ');
    }
    return members.map(describeType).join(' | ') || 'any';
  }
  const rawType = schema.type;
  const types = Array.isArray(rawType) ? rawType.map(String) : typeof rawType === 'string' ? [rawType] : [];
  let word =
    types.length > 0
      ? types.join(' | ')
      : isSchema(schema.properties)
        ? 'object'
        : Array.isArray(schema.enum)
          ? 'enum'
          : 'any';
  if (types.includes('array') && isSchema(schema.items))
    word = word.replace('array', `array of ${describeType(schema.items)}`);
  if (typeof schema.format === 'string') word += ` (${schema.format})`;
  return word;
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof schema.minimum === 'number') out.push(`≥ ${schema.minimum}`);
  if (typeof schema.exclusiveMinimum === 'number') out.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.maximum === 'number') out.push(`≤ ${schema.maximum}`);
  if (typeof schema.exclusiveMaximum === 'number') out.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.minLength === 'number')
    out.push(translate('servers.schema.minChars', { count: String(schema.minLength) }));
  if (typeof schema.maxLength === 'number')
    out.push(translate('servers.schema.maxChars', { count: String(schema.maxLength) }));
  if (typeof schema.minItems === 'number')
    out.push(translate('servers.schema.minItems', { count: String(schema.minItems) }));
  if (typeof schema.maxItems === 'number')
    out.push(translate('servers.schema.maxItems', { count: String(schema.maxItems) }));
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`);
  return out;
}

function enumOf(schema: JsonSchema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(show);
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  // Titled enums (`oneOf: [{ const, title }]`) read better as a value list.
  if (Array.isArray(union) && union.length > 0 && union.every((u) => isSchema(u) && 'const' in u)) {
    return union.map((u) => {
      const item = u as JsonSchema;
      return typeof item.title === 'string' ? `${show(item.const)} (${item.title})` : show(item.const);
    });
  }
  if (isSchema(schema.items)) return enumOf(schema.items);
  return undefined;
}

/**
 * Flattens a tool's input schema into table rows, depth-first, so nested
 * objects (and objects inside arrays) show indented under their parent.
 * Deliberately forgiving: servers send all kinds of schemas.
 */
export function schemaRows(schema: unknown, maxDepth = 6): SchemaRow[] {
  const rows: SchemaRow[] = [];
  const visit = (node: JsonSchema, prefix: string, depth: number) => {
    const properties = node.properties;
    if (!isSchema(properties) || depth > maxDepth) return;
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    for (const [name, raw] of Object.entries(properties)) {
      const prop = isSchema(raw) ? raw : {};
      const path = prefix ? `${prefix}.${name}` : name;
      const enumValues = enumOf(prop);
      rows.push({
        path,
        name,
        depth,
        type: describeType(prop),
        required: required.has(name),
        description:
          typeof prop.description === 'string'
            ? prop.description
            : typeof prop.title === 'string'
              ? prop.title
              : undefined,
        enumValues: enumValues && enumValues.length > 0 ? enumValues : undefined,
        defaultValue: 'default' in prop ? show(prop.default) : undefined,
        constraints: constraintsOf(prop),
      });
      if (isSchema(prop.properties)) visit(prop, path, depth + 1);
      else if (isSchema(prop.items) && isSchema(prop.items.properties)) visit(prop.items, `${path}[]`, depth + 1);
    }
  };
  if (isSchema(schema)) visit(schema, '', 0);
  return rows;
}
