import { describe, expect, it } from 'vitest';
import { strictSchemaProblems } from '../../e2e/fake-llm/strict-schema';
import { portableSchema, strictSchema } from './openai-tool-schema';

// Schemas as zod-to-json-schema and pydantic write them for MCP tools. The real
// servers' own schemas are checked in test/integration/tool-schemas-real.test.ts.

const PYDANTIC_WITH_DEFS = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:tool:create_event',
  $comment: 'generated',
  type: 'object',
  $defs: {
    Attendee: {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, role: { $ref: '#/$defs/Role' } },
      required: ['email'],
    },
    Role: { type: 'string', enum: ['host', 'guest'] },
  },
  properties: {
    title: { type: 'string', minLength: 1 },
    start: { type: 'string', format: 'date-time' },
    attendees: { type: 'array', items: { $ref: '#/$defs/Attendee' }, uniqueItems: true },
    organizer: { $ref: '#/$defs/Attendee', description: 'Who sends the invitations' },
  },
  required: ['title', 'start'],
  additionalProperties: false,
};

const RECURSIVE_TREE = {
  type: 'object',
  definitions: {
    node: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
    },
  },
  properties: { root: { $ref: '#/definitions/node' } },
};

describe('tool schemas for every OpenAI-compatible target (portableSchema)', () => {
  it('drops the identity keywords and inlines local $refs; nothing else changes', () => {
    expect(portableSchema(PYDANTIC_WITH_DEFS)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1 },
        start: { type: 'string', format: 'date-time' },
        attendees: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              email: { type: 'string', format: 'email' },
              role: { type: 'string', enum: ['host', 'guest'] },
            },
            required: ['email'],
          },
          uniqueItems: true,
        },
        organizer: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' }, role: { type: 'string', enum: ['host', 'guest'] } },
          required: ['email'],
          description: 'Who sends the invitations',
        },
      },
      required: ['title', 'start'],
      additionalProperties: false,
    });
  });

  it('keeps a recursive $ref (and the definitions it needs), inlining it once', () => {
    const portable = portableSchema(RECURSIVE_TREE);
    expect(portable['definitions']).toEqual(RECURSIVE_TREE.definitions);
    expect(portable['properties']).toEqual({
      root: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
      },
    });
  });

  it('reads JSON pointers with escapes, and leaves a $ref it cannot resolve', () => {
    const schema = {
      type: 'object',
      $defs: { 'a/b': { type: 'integer' } },
      properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: 'https://example.com/s.json' } },
    };
    expect(portableSchema(schema)['properties']).toEqual({
      x: { type: 'integer' },
      y: { $ref: 'https://example.com/s.json' },
    });
  });

  it('a property named like a keyword stays a property', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pattern: { type: 'string' }, $id: { type: 'string' } },
      required: ['pattern'],
    };
    expect(portableSchema(schema)).toEqual({
      type: 'object',
      properties: { pattern: { type: 'string' }, $id: { type: 'string' } },
      required: ['pattern'],
    });
  });
});

describe('tool schemas for strict targets (strictSchema)', () => {
  it('gives a schema Gemini takes, saying in descriptions what its subset cannot', () => {
    expect(strictSchemaProblems(PYDANTIC_WITH_DEFS).length).toBeGreaterThan(0);
    const strict = strictSchema(PYDANTIC_WITH_DEFS);
    expect(strictSchemaProblems(strict)).toEqual([]);
    expect(strict).toMatchObject({
      type: 'object',
      required: ['title', 'start'],
      properties: {
        start: { type: 'string', format: 'date-time' },
        attendees: {
          type: 'array',
          description: 'Also: uniqueItems true.',
          items: { properties: { email: { type: 'string', description: 'Format: email.' } } },
        },
        organizer: { description: 'Who sends the invitations' },
      },
    });
    expect(strict).not.toHaveProperty('additionalProperties');
  });

  it('rewrites const, oneOf, nullable types, numeric enums, object allOf and maps', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { const: 'search' },
        mode: {
          oneOf: [
            { type: 'string', enum: ['a'] },
            { type: 'integer', exclusiveMinimum: 0 },
          ],
        },
        limit: { type: ['integer', 'null'], minimum: 1 },
        level: { type: 'integer', enum: [1, 2, 3] },
        either: { type: ['string', 'number'] },
        merged: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'number' } } },
          ],
        },
        labels: { type: 'object', properties: { fixed: { type: 'string' } }, additionalProperties: { type: 'string' } },
      },
    };
    const strict = strictSchema(schema);
    expect(strictSchemaProblems(strict)).toEqual([]);
    expect(strict?.['properties']).toEqual({
      kind: { enum: ['search'] },
      mode: {
        anyOf: [
          { type: 'string', enum: ['a'] },
          { type: 'integer', description: 'Also: exclusiveMinimum 0.' },
        ],
      },
      limit: { type: 'integer', nullable: true, minimum: 1 },
      level: { type: 'integer', description: 'One of: 1, 2, 3.' },
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      merged: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] },
      labels: {
        type: 'object',
        properties: { fixed: { type: 'string' } },
        description: 'Each value: {"type":"string"}.',
      },
    });
  });

  it('a recursive shape becomes an object that names it; a tool without parameters sends none', () => {
    const strict = strictSchema(RECURSIVE_TREE);
    expect(strictSchemaProblems(strict)).toEqual([]);
    expect(JSON.stringify(strict)).toContain('Same shape as node.');
    expect(
      strictSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} }),
    ).toBeUndefined();
    expect(strictSchema({ type: 'object' })).toBeUndefined();
  });
});
