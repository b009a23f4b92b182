import { z } from 'zod';

/** The string formats an elicitation form may ask for (MCP 2025-11-25). */
export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

const FieldBase = {
  /** The property name: the key of the value in the answer. */
  name: z.string(),
  /** What the form shows: the schema's `title`, or the property name. */
  label: z.string(),
  description: z.string().optional(),
  required: z.boolean(),
};

/** One choice of a select: the value sent back and the text shown. */
export const FieldOptionSchema = z.object({ value: z.string(), label: z.string() });
export type FieldOption = z.infer<typeof FieldOptionSchema>;

export const StringFieldSchema = z.object({
  ...FieldBase,
  kind: z.literal('string'),
  format: z.enum(STRING_FORMATS).optional(),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().nonnegative().optional(),
  default: z.string().optional(),
});

export const NumberFieldSchema = z.object({
  ...FieldBase,
  kind: z.literal('number'),
  /** `type: 'integer'`: only whole numbers are accepted. */
  integer: z.boolean(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});

export const BooleanFieldSchema = z.object({
  ...FieldBase,
  kind: z.literal('boolean'),
  default: z.boolean().optional(),
});

/** One of several options: plain `enum`, legacy `enum` + `enumNames`, or titled `oneOf`. */
export const SelectFieldSchema = z.object({
  ...FieldBase,
  kind: z.literal('select'),
  options: z.array(FieldOptionSchema).min(1),
  default: z.string().optional(),
});

/** Any number of options: `type: 'array'` with `items.enum` or titled `items.anyOf`. */
export const MultiSelectFieldSchema = z.object({
  ...FieldBase,
  kind: z.literal('multi-select'),
  options: z.array(FieldOptionSchema).min(1),
  minItems: z.number().int().nonnegative().optional(),
  maxItems: z.number().int().nonnegative().optional(),
  default: z.array(z.string()).optional(),
});

/** One form field, derived from one property of an elicitation's `requestedSchema`. */
export const ElicitationFieldSchema = z.discriminatedUnion('kind', [
  StringFieldSchema,
  NumberFieldSchema,
  BooleanFieldSchema,
  SelectFieldSchema,
  MultiSelectFieldSchema,
]);
export type ElicitationField = z.infer<typeof ElicitationFieldSchema>;
export type StringField = z.infer<typeof StringFieldSchema>;
export type NumberField = z.infer<typeof NumberFieldSchema>;
export type BooleanField = z.infer<typeof BooleanFieldSchema>;
export type SelectField = z.infer<typeof SelectFieldSchema>;
export type MultiSelectField = z.infer<typeof MultiSelectFieldSchema>;

/** The outcome of reading a `requestedSchema`: the fields, or every problem found. */
export type FormFromSchemaResult =
  { ok: true; fields: ElicitationField[] } | { ok: false; problems: string[]; message: string };

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects the problems of one property; every check adds to the same list. */
class FieldReader {
  readonly problems: string[] = [];

  constructor(
    readonly name: string,
    readonly schema: Json,
  ) {}

  problem(text: string): void {
    this.problems.push(`field '${this.name}': ${text}`);
  }

  optionalString(key: string): string | undefined {
    const value = this.schema[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.problem(`${key} must be a string`);
      return undefined;
    }
    return value;
  }

  optionalNumber(key: string, wholeNonNegative = false): number | undefined {
    const value = this.schema[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.problem(`${key} must be a number`);
      return undefined;
    }
    if (wholeNonNegative && (!Number.isInteger(value) || value < 0)) {
      this.problem(`${key} must be a whole number of at least 0`);
      return undefined;
    }
    return value;
  }

  /** `min <= max` when both are given. */
  range(minKey: string, min: number | undefined, maxKey: string, max: number | undefined): void {
    if (min !== undefined && max !== undefined && min > max)
      this.problem(`${minKey} (${min}) is greater than ${maxKey} (${max})`);
  }

  base(required: boolean): { name: string; label: string; description?: string; required: boolean } {
    const title = this.optionalString('title');
    const description = this.optionalString('description');
    return {
      name: this.name,
      label: title !== undefined && title.trim() !== '' ? title : this.name,
      ...(description !== undefined ? { description } : {}),
      required,
    };
  }
}

/** `enum` (+ legacy `enumNames`) or titled `oneOf`/`anyOf` entries → options. */
function readOptions(reader: FieldReader, values: unknown, names: unknown, where: string): FieldOption[] | undefined {
  const titled = !where.endsWith('enum');
  if (!Array.isArray(values) || values.length === 0) {
    reader.problem(`${where} must be a non-empty list`);
    return undefined;
  }
  if (
    names !== undefined &&
    (!Array.isArray(names) || names.length !== values.length || names.some((n) => typeof n !== 'string'))
  ) {
    reader.problem(`enumNames must be a list of ${values.length} strings, one per enum value`);
    return undefined;
  }
  const options: FieldOption[] = [];
  for (const [index, entry] of values.entries()) {
    if (!titled && typeof entry === 'string') {
      const label = names === undefined ? entry : ((names as string[])[index] ?? entry);
      options.push({ value: entry, label });
    } else if (titled && isRecord(entry) && typeof entry.const === 'string') {
      if (entry.title !== undefined && typeof entry.title !== 'string')
        reader.problem(`${where}[${index}].title must be a string`);
      options.push({ value: entry.const, label: typeof entry.title === 'string' ? entry.title : entry.const });
    } else {
      reader.problem(
        `${where}[${index}] must be ${titled ? 'an object { const: string, title: string }' : 'a string'}`,
      );
      return undefined;
    }
  }
  const seen = new Set<string>();
  for (const option of options) {
    if (seen.has(option.value)) reader.problem(`option '${option.value}' is listed twice`);
    seen.add(option.value);
  }
  return options;
}

function readStringLike(reader: FieldReader, required: boolean): ElicitationField | undefined {
  const { schema } = reader;
  const base = reader.base(required);
  const defaultValue = schema.default;
  if (defaultValue !== undefined && typeof defaultValue !== 'string') reader.problem('default must be a string');
  const fallback = typeof defaultValue === 'string' ? defaultValue : undefined;
  if (schema.enum !== undefined || schema.oneOf !== undefined) {
    if (schema.enum !== undefined && schema.oneOf !== undefined)
      reader.problem('has both enum and oneOf; use one of them');
    const options =
      schema.enum !== undefined
        ? readOptions(reader, schema.enum, schema.enumNames, 'enum')
        : readOptions(reader, schema.oneOf, undefined, 'oneOf');
    if (options === undefined) return undefined;
    if (fallback !== undefined && !options.some((o) => o.value === fallback))
      reader.problem(`default '${fallback}' is not one of the options`);
    return { ...base, kind: 'select', options, ...(fallback !== undefined ? { default: fallback } : {}) };
  }
  const format = reader.optionalString('format');
  if (format !== undefined && !(STRING_FORMATS as readonly string[]).includes(format)) {
    reader.problem(`format '${format}' is not supported (use ${STRING_FORMATS.join(', ')})`);
  }
  const minLength = reader.optionalNumber('minLength', true);
  const maxLength = reader.optionalNumber('maxLength', true);
  reader.range('minLength', minLength, 'maxLength', maxLength);
  return {
    ...base,
    kind: 'string',
    ...(format !== undefined && (STRING_FORMATS as readonly string[]).includes(format)
      ? { format: format as StringFormat }
      : {}),
    ...(minLength !== undefined ? { minLength } : {}),
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

function readNumber(reader: FieldReader, required: boolean, integer: boolean): ElicitationField {
  const minimum = reader.optionalNumber('minimum');
  const maximum = reader.optionalNumber('maximum');
  reader.range('minimum', minimum, 'maximum', maximum);
  const fallback = reader.optionalNumber('default');
  if (fallback !== undefined && integer && !Number.isInteger(fallback))
    reader.problem(`default ${fallback} is not a whole number`);
  return {
    ...reader.base(required),
    kind: 'number',
    integer,
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
  };
}

function readMultiSelect(reader: FieldReader, required: boolean): ElicitationField | undefined {
  const { items } = reader.schema;
  if (!isRecord(items)) {
    reader.problem('an array field needs items with enum or anyOf (a multi-select)');
    return undefined;
  }
  if (items.enum === undefined && items.anyOf === undefined) {
    reader.problem('items must list the choices in enum or anyOf; only multi-select arrays are supported');
    return undefined;
  }
  if (items.type !== undefined && items.type !== 'string')
    reader.problem(`items.type must be 'string', not '${String(items.type)}'`);
  const options =
    items.enum !== undefined
      ? readOptions(reader, items.enum, undefined, 'items.enum')
      : readOptions(reader, items.anyOf, undefined, 'items.anyOf');
  if (options === undefined) return undefined;
  const minItems = reader.optionalNumber('minItems', true);
  const maxItems = reader.optionalNumber('maxItems', true);
  reader.range('minItems', minItems, 'maxItems', maxItems);
  const fallback = reader.schema.default;
  let defaults: string[] | undefined;
  if (fallback !== undefined) {
    if (!Array.isArray(fallback) || fallback.some((v) => typeof v !== 'string'))
      reader.problem('default must be a list of strings');
    else {
      defaults = fallback as string[];
      const unknown = defaults.filter((v) => !options.some((o) => o.value === v));
      if (unknown.length > 0)
        reader.problem(`default lists ${unknown.map((v) => `'${v}'`).join(', ')}, not among the options`);
    }
  }
  return {
    ...reader.base(required),
    kind: 'multi-select',
    options,
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
    ...(defaults !== undefined ? { default: defaults } : {}),
  };
}

function readField(name: string, schema: unknown, required: boolean): { field?: ElicitationField; problems: string[] } {
  if (!isRecord(schema)) return { problems: [`field '${name}': expected a schema object`] };
  const reader = new FieldReader(name, schema);
  let field: ElicitationField | undefined;
  switch (schema.type) {
    case 'string':
      field = readStringLike(reader, required);
      break;
    case 'number':
    case 'integer':
      field = readNumber(reader, required, schema.type === 'integer');
      break;
    case 'boolean': {
      const fallback = schema.default;
      if (fallback !== undefined && typeof fallback !== 'boolean') reader.problem('default must be true or false');
      field = {
        ...reader.base(required),
        kind: 'boolean',
        ...(typeof fallback === 'boolean' ? { default: fallback } : {}),
      };
      break;
    }
    case 'array':
      field = readMultiSelect(reader, required);
      break;
    case undefined:
      reader.problem('has no type (use string, number, integer, boolean, or array for a multi-select)');
      break;
    default:
      reader.problem(
        `type ${JSON.stringify(schema.type)} is not supported in elicitation forms (use string, number, integer, boolean, or array for a multi-select)`,
      );
  }
  return { ...(field !== undefined && reader.problems.length === 0 ? { field } : {}), problems: reader.problems };
}

/**
 * Read an elicitation `requestedSchema` (a flat object of primitive
 * properties) into form fields. Every problem is reported, not just the first,
 * so a server author can fix the schema in one go.
 */
export function formFromSchema(requestedSchema: unknown): FormFromSchemaResult {
  const problems: string[] = [];
  if (!isRecord(requestedSchema)) {
    problems.push('requestedSchema must be a JSON object');
  } else {
    if (requestedSchema.type !== 'object')
      problems.push(`requestedSchema.type must be 'object', not ${JSON.stringify(requestedSchema.type ?? null)}`);
    const { properties, required } = requestedSchema;
    if (!isRecord(properties)) problems.push('requestedSchema.properties must be an object of fields');
    let requiredNames: string[] = [];
    if (required !== undefined) {
      if (!Array.isArray(required) || required.some((r) => typeof r !== 'string'))
        problems.push('requestedSchema.required must be a list of field names');
      else requiredNames = required as string[];
    }
    if (isRecord(properties)) {
      for (const name of requiredNames) {
        if (!(name in properties)) problems.push(`required field '${name}' is not among the properties`);
      }
      const fields: ElicitationField[] = [];
      for (const [name, schema] of Object.entries(properties)) {
        const read = readField(name, schema, requiredNames.includes(name));
        problems.push(...read.problems);
        if (read.field !== undefined) fields.push(read.field);
      }
      if (problems.length === 0) return { ok: true, fields };
    }
  }
  const message = `The form cannot be shown: ${problems.join('; ')}`;
  return { ok: false, problems, message };
}
