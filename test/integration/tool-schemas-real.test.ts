import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import { strictSchemaProblems } from '../../e2e/fake-llm/strict-schema';
import { OpenAiCompatibleClient } from '../../app/providers/openai-compatible';
import { portableSchema, strictSchema } from '../../app/providers/openai-tool-schema';

// The tool schemas of the reference servers, listed from the real servers (not
// copied by hand), as OpenAI-compatible targets get them: every one taken by a
// strict (Gemini-style) endpoint, and unchanged in meaning for the others.

const require = createRequire(import.meta.url);

async function listTools(pkg: string, args: string[]): Promise<Tool[]> {
  const entry = join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
  const client = new Client({ name: 'berth-schema-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'ignore' }),
  );
  try {
    const server = pkg.split('/')[1] ?? pkg;
    const { tools } = await client.listTools();
    return tools.map((tool) => ({
      name: `${server}__${tool.name}`.slice(0, 64),
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      input_schema: tool.inputSchema as Tool['input_schema'],
    }));
  } finally {
    await client.close();
  }
}

function withoutKey(schema: unknown, key: string): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => withoutKey(entry, key));
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([name]) => name !== key)
      .map(([name, value]) => [name, withoutKey(value, key)]),
  );
}

let tools: Tool[];

beforeAll(async () => {
  const everything = await listTools('@modelcontextprotocol/server-everything', ['stdio']);
  const filesystem = await listTools('@modelcontextprotocol/server-filesystem', [tmpdir()]);
  tools = [...everything, ...filesystem];
}, 60_000);

describe('the reference servers’ tool schemas for OpenAI-compatible targets', () => {
  it('as they are, a strict endpoint refuses them ($schema, format uri, objects without properties)', () => {
    expect(tools.length).toBeGreaterThan(20);
    const refused = tools.filter((tool) => strictSchemaProblems(tool.input_schema).length > 0);
    expect(refused.length).toBe(tools.length);
    expect(strictSchemaProblems(tools[0]?.input_schema).join('\n')).toContain('Unknown name "$schema"');
  });

  it('portable: only $schema goes, everything else is as the server wrote it', () => {
    for (const tool of tools)
      expect(portableSchema(tool.input_schema as Record<string, unknown>), tool.name).toEqual(
        withoutKey(tool.input_schema, '$schema'),
      );
  });

  it('strict: every schema is taken, what the subset cannot say is in a description, tools without parameters send none', () => {
    for (const tool of tools) {
      const strict = strictSchema(tool.input_schema as Record<string, unknown>);
      const properties = (tool.input_schema as { properties?: Record<string, unknown> }).properties ?? {};
      if (Object.keys(properties).length === 0) expect(strict, tool.name).toBeUndefined();
      else {
        expect(strictSchemaProblems(strict), tool.name).toEqual([]);
        expect(Object.keys((strict as { properties: object }).properties), tool.name).toEqual(Object.keys(properties));
      }
    }
    const gzip = tools.find((tool) => tool.name === 'server-everything__gzip-file-as-resource');
    expect(strictSchema(gzip?.input_schema as Record<string, unknown>)).toMatchObject({
      properties: {
        data: { type: 'string', description: 'URL or data URI of the file content to compress. Format: uri.' },
      },
    });
  });

  describe('through the client', () => {
    let fake: FakeOpenAi;
    beforeAll(async () => {
      fake = await FakeOpenAi.start({
        models: ['gemini-2.5-flash', 'strict-local', 'llama3.1:8b'],
        modelsWithStrictSchemas: ['gemini-2.5-flash', 'strict-local'],
      });
    });
    afterAll(async () => {
      await fake.close();
    });
    const ask = (client: OpenAiCompatibleClient, model: string) =>
      client.stream({ model, maxTokens: 64, messages: [{ role: 'user', content: 'hi' }], tools });

    it('a Gemini model gets strict schemas at once; a lenient server gets them as written', async () => {
      fake.reset();
      fake.script([{ text: 'ok' }, { text: 'ok' }]);
      const client = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
      await ask(client, 'gemini-2.5-flash');
      expect(fake.requests).toHaveLength(1);
      await ask(client, 'llama3.1:8b');
      const sent = fake.requests[1]?.body?.tools ?? [];
      expect(sent.map((tool) => tool.function.parameters)).toEqual(
        tools.map((tool) => withoutKey(tool.input_schema, '$schema')),
      );
    });

    it('a server strict without saying so: refused once, asked again in the strict form, and strict from then on', async () => {
      fake.reset();
      fake.script([{ text: 'first' }, { text: 'second' }]);
      const client = new OpenAiCompatibleClient({ baseURL: fake.url, maxRetries: 0 });
      const first = await ask(client, 'strict-local');
      expect(first.content).toEqual([{ type: 'text', text: 'first' }]);
      expect(fake.requests).toHaveLength(2);
      await ask(client, 'strict-local');
      expect(fake.requests).toHaveLength(3);
      for (const tool of fake.requests[2]?.body?.tools ?? [])
        expect(
          tool.function.parameters === undefined || strictSchemaProblems(tool.function.parameters).length === 0,
        ).toBe(true);
    });
  });
});
