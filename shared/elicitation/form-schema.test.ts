import { describe, expect, it } from 'vitest';
import { ElicitationFieldSchema, formFromSchema } from './form-schema';
import type { ElicitationField } from './form-schema';

function fields(schema: unknown): ElicitationField[] {
  const result = formFromSchema(schema);
  if (!result.ok) throw new Error(result.message);
  return result.fields;
}

function problems(schema: unknown): string[] {
  const result = formFromSchema(schema);
  if (result.ok) throw new Error('expected problems');
  expect(result.message).toBe(`The form cannot be shown: ${result.problems.join('; ')}`);
  return result.problems;
}

const object = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

describe('formFromSchema', () => {
  it('reads strings with title, description, lengths, formats and defaults', () => {
    expect(
      fields(
        object(
          {
            name: {
              type: 'string',
              title: 'Full name',
              description: 'As on your passport',
              minLength: 2,
              maxLength: 50,
              default: 'Ada',
            },
            email: { type: 'string', format: 'email' },
            site: { type: 'string', format: 'uri' },
            born: { type: 'string', format: 'date' },
            meeting: { type: 'string', format: 'date-time' },
          },
          ['name'],
        ),
      ),
    ).toEqual([
      {
        name: 'name',
        label: 'Full name',
        description: 'As on your passport',
        required: true,
        kind: 'string',
        minLength: 2,
        maxLength: 50,
        default: 'Ada',
      },
      { name: 'email', label: 'email', required: false, kind: 'string', format: 'email' },
      { name: 'site', label: 'site', required: false, kind: 'string', format: 'uri' },
      { name: 'born', label: 'born', required: false, kind: 'string', format: 'date' },
      { name: 'meeting', label: 'meeting', required: false, kind: 'string', format: 'date-time' },
    ]);
  });

  it('reads numbers and integers with bounds, and booleans with defaults', () => {
    expect(
      fields(
        object({
          ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
          count: { type: 'integer', title: 'Count', minimum: 1 },
          agree: { type: 'boolean', title: 'I agree', default: true },
        }),
      ),
    ).toEqual([
      {
        name: 'ratio',
        label: 'ratio',
        required: false,
        kind: 'number',
        integer: false,
        minimum: 0,
        maximum: 1,
        default: 0.5,
      },
      { name: 'count', label: 'Count', required: false, kind: 'number', integer: true, minimum: 1 },
      { name: 'agree', label: 'I agree', required: false, kind: 'boolean', default: true },
    ]);
  });

  it('reads every single-select form: plain enum, legacy enumNames, titled oneOf', () => {
    const [plain, legacy, titled] = fields(
      object({
        color: { type: 'string', enum: ['red', 'green'], default: 'green' },
        pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
        hero: {
          type: 'string',
          oneOf: [
            { const: 'h1', title: 'Superman' },
            { const: 'h2', title: 'Wonder Woman' },
          ],
          default: 'h2',
        },
      }),
    );
    expect(plain).toEqual({
      name: 'color',
      label: 'color',
      required: false,
      kind: 'select',
      options: [
        { value: 'red', label: 'red' },
        { value: 'green', label: 'green' },
      ],
      default: 'green',
    });
    expect(legacy).toMatchObject({
      kind: 'select',
      options: [
        { value: 'pet-1', label: 'Cats' },
        { value: 'pet-2', label: 'Dogs' },
      ],
    });
    expect(titled).toMatchObject({
      kind: 'select',
      options: [
        { value: 'h1', label: 'Superman' },
        { value: 'h2', label: 'Wonder Woman' },
      ],
      default: 'h2',
    });
  });

  it('reads multi-selects, untitled and titled, with item bounds and defaults', () => {
    const [untitled, titled] = fields(
      object({
        tools: {
          type: 'array',
          minItems: 1,
          maxItems: 2,
          items: { type: 'string', enum: ['guitar', 'piano', 'drums'] },
          default: ['piano'],
        },
        fish: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'f1', title: 'Tuna' },
              { const: 'f2', title: 'Salmon' },
            ],
          },
        },
      }),
    );
    expect(untitled).toEqual({
      name: 'tools',
      label: 'tools',
      required: false,
      kind: 'multi-select',
      options: ['guitar', 'piano', 'drums'].map((v) => ({ value: v, label: v })),
      minItems: 1,
      maxItems: 2,
      default: ['piano'],
    });
    expect(titled).toMatchObject({
      kind: 'multi-select',
      options: [
        { value: 'f1', label: 'Tuna' },
        { value: 'f2', label: 'Salmon' },
      ],
    });
  });

  it("reads server-everything's trigger-elicitation-request schema, and every field matches the contract", () => {
    const schema = object(
      {
        name: { title: 'String', type: 'string', description: 'Your full, legal name' },
        check: { title: 'Boolean', type: 'boolean' },
        firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
        email: { type: 'string', format: 'email' },
        homepage: { type: 'string', format: 'uri' },
        birthdate: { type: 'string', format: 'date' },
        integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
        number: { type: 'number', minimum: 0, maximum: 1000, default: 3.14 },
        untitledSingleSelectEnum: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
        untitledMultipleSelectEnum: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: ['Guitar', 'Piano'] },
          default: ['Guitar'],
        },
        titledSingleSelectEnum: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }], default: 'hero-1' },
        titledMultipleSelectEnum: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }] },
          default: ['fish-1'],
        },
        legacyTitledEnum: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-1' },
      },
      ['name'],
    );
    const read = fields(schema);
    expect(read.map((f) => f.kind)).toEqual([
      'string',
      'boolean',
      'string',
      'string',
      'string',
      'string',
      'number',
      'number',
      'select',
      'multi-select',
      'select',
      'multi-select',
      'select',
    ]);
    for (const field of read) expect(ElicitationFieldSchema.safeParse(field).success).toBe(true);
  });

  it('accepts an empty form (a plain confirmation)', () => {
    expect(fields(object({}))).toEqual([]);
  });

  it('lists every problem of an unusable schema at once', () => {
    expect(
      problems(
        object(
          {
            address: { type: 'object', properties: {} },
            phone: { type: 'string', format: 'phone' },
            size: { type: 'number', minimum: 10, maximum: 1 },
            count: { type: 'integer', default: 2.5 },
            color: { type: 'string', enum: ['red'], default: 'blue' },
            tags: { type: 'array', items: { type: 'string' } },
            nothing: { title: 'No type' },
            text: { type: 'string', minLength: -1 },
          },
          ['missing'],
        ),
      ),
    ).toEqual([
      "required field 'missing' is not among the properties",
      'field \'address\': type "object" is not supported in elicitation forms (use string, number, integer, boolean, or array for a multi-select)',
      "field 'phone': format 'phone' is not supported (use email, uri, date, date-time)",
      "field 'size': minimum (10) is greater than maximum (1)",
      "field 'count': default 2.5 is not a whole number",
      "field 'color': default 'blue' is not one of the options",
      "field 'tags': items must list the choices in enum or anyOf; only multi-select arrays are supported",
      "field 'nothing': has no type (use string, number, integer, boolean, or array for a multi-select)",
      "field 'text': minLength must be a whole number of at least 0",
    ]);
  });

  it('explains bad enums', () => {
    expect(
      problems(
        object({
          a: { type: 'string', enum: [] },
          b: { type: 'string', enum: ['x', 'x'] },
          c: { type: 'string', enum: ['x', 'y'], enumNames: ['X'] },
          d: { type: 'string', enum: [1, 2] },
          e: { type: 'string', oneOf: ['x'] },
          f: { type: 'array', items: { enum: ['x'] }, default: ['y'] },
          g: { type: 'string', enum: ['x'], oneOf: [{ const: 'x', title: 'X' }] },
        }),
      ),
    ).toEqual([
      "field 'a': enum must be a non-empty list",
      "field 'b': option 'x' is listed twice",
      "field 'c': enumNames must be a list of 2 strings, one per enum value",
      "field 'd': enum[0] must be a string",
      "field 'e': oneOf[0] must be an object { const: string, title: string }",
      "field 'f': default lists 'y', not among the options",
      "field 'g': has both enum and oneOf; use one of them",
    ]);
  });

  it('refuses a schema that is not an object form', () => {
    expect(problems(null)).toEqual(['requestedSchema must be a JSON object']);
    expect(problems({ type: 'array', properties: {} })).toEqual([
      'requestedSchema.type must be \'object\', not "array"',
    ]);
    expect(problems({ type: 'object' })).toEqual(['requestedSchema.properties must be an object of fields']);
    expect(problems({ type: 'object', properties: { a: 'string' }, required: 'a' })).toEqual([
      'requestedSchema.required must be a list of field names',
      "field 'a': expected a schema object",
    ]);
  });
});
