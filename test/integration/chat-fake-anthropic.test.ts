import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { once } from 'node:events';
import Anthropic, {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import { REPO_ROOT } from '../../app/servers/test-support';

const MODEL = 'claude-test-1';

describe('fake Anthropic Messages API, read by the real SDK', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeEach(async () => {
    fake = await FakeAnthropic.start({ apiKey: 'sk-test' });
    client = new Anthropic({ apiKey: 'sk-test', baseURL: fake.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('streams text: the SDK emits every delta and assembles the message with usage and stop_reason', async () => {
    fake.script([{ text: 'Hello there, person. How are you?' }]);
    const deltas: string[] = [];
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, person. How are you?');
    expect(message).toMatchObject({
      role: 'assistant',
      model: MODEL,
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'Hello there, person. How are you?' }],
    });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(1);
    expect(fake.requests[0]?.stream).toBe(true);
    expect(fake.requests[0]?.body?.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('streams tool_use blocks whose input arrives as input_json_delta pieces', async () => {
    const input = { path: '/tmp/some/long/path/name.txt', options: { recursive: true, depth: 3 }, tags: ['a', 'b'] };
    fake.script([
      {
        text: 'Let me look.',
        toolUses: [
          { name: 'fs__read', input },
          { name: 'web__search', input: { q: 'x' } },
        ],
      },
    ]);
    const partials: string[] = [];
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'read it' }],
      tools: [
        { name: 'fs__read', input_schema: { type: 'object' } },
        { name: 'web__search', input_schema: { type: 'object' } },
      ],
    });
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();
    expect(partials.filter((part) => part.length > 0).length).toBeGreaterThan(3);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toMatchObject([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_fake_1_1', name: 'fs__read', input },
      { type: 'tool_use', id: 'toolu_fake_1_2', name: 'web__search', input: { q: 'x' } },
    ]);
  });

  it('answers non-streaming requests with a JSON message', async () => {
    fake.script([{ text: 'plain', toolUses: [{ name: 't', input: { a: 1 } }], stopReason: 'tool_use' }]);
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 't', input_schema: { type: 'object' } }],
    });
    expect(message.content).toMatchObject([
      { type: 'text', text: 'plain' },
      { type: 'tool_use', name: 't', input: { a: 1 } },
    ]);
    expect(fake.requests[0]?.stream).toBe(false);
  });

  it('HTTP errors reach the SDK as its typed errors with the API message', async () => {
    fake.script([
      { error: { status: 429, type: 'rate_limit_error', message: 'slow down' } },
      { error: { status: 529, type: 'overloaded_error', message: 'busy' } },
    ]);
    const first = client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
    await expect(first).rejects.toBeInstanceOf(RateLimitError);
    await expect(first).rejects.toMatchObject({ status: 429, apiMessage: 'slow down', type: 'rate_limit_error' });
    const second = client.messages
      .stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    await expect(second).rejects.toBeInstanceOf(InternalServerError);
    await expect(second).rejects.toMatchObject({ status: 529, apiMessage: 'busy' });
  });

  it('an SSE error event mid-stream fails the SDK stream', async () => {
    fake.script([{ streamError: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const result = client.messages
      .stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
      .finalMessage();
    await expect(result).rejects.toMatchObject({ type: 'overloaded_error', apiMessage: 'Overloaded' });
  });

  it('checks x-api-key, and runs out of script loudly', async () => {
    const wrongKey = new Anthropic({ apiKey: 'sk-wrong', baseURL: fake.url, maxRetries: 0 });
    await expect(
      wrongKey.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(AuthenticationError);
    // @anthropic-ai/sdk 1.x sends the key as a bearer token; x-api-key works too.
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-wrong');
    const raw = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
    const viaHeader = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(raw),
    });
    expect(viaHeader.status).toBe(500);
    expect(await viaHeader.json()).toMatchObject({
      type: 'error',
      error: { type: 'api_error', message: expect.stringMatching(/no scripted turn left for request #2/) },
    });
    await expect(
      client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/no scripted turn left for request #3/);
  });

  it('rejects requests the real API would reject: bad tool names, empty text, a tool_use without its tool_result', async () => {
    fake.script([{ text: 'never sent' }]);
    const badName = client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ name: 'has space', input_schema: { type: 'object' } }],
    });
    await expect(badName).rejects.toBeInstanceOf(BadRequestError);
    await expect(
      client.messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }],
      }),
    ).rejects.toThrow(/non-empty/);
    const orphan = client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }] },
        { role: 'user', content: 'no result here' },
      ],
    });
    await expect(orphan).rejects.toThrow(
      /tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
    );
    expect(fake.pending).toBe(1);
  });

  it('answers from a function of the request, and fills {{lastToolResult}}', async () => {
    fake.script([
      (request) => ({ text: `You said ${request.body?.messages.length ?? 0} things` }),
      { text: 'The tool said: {{lastToolResult}}' },
    ]);
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(first.content).toMatchObject([{ type: 'text', text: 'You said 1 things' }]);
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 't', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Echo: hi' }] }],
        },
      ],
    });
    expect(second.content).toMatchObject([{ type: 'text', text: 'The tool said: Echo: hi' }]);
  });
});

describe('fake Anthropic as a separate process', () => {
  it('prints its URL, takes a script over HTTP and reports the requests', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'e2e/fake-llm/cli.ts'), '--api-key', 'sk-cli'],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const match = /FAKE_ANTHROPIC_URL=(http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
          if (match?.[1] !== undefined) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`cli exited with ${String(code)} before printing its URL`)));
      });
      const bad = await fetch(`${url}/__fake/script`, {
        method: 'POST',
        body: JSON.stringify({ turns: [{ text: 1 }] }),
      });
      expect(bad.status).toBe(400);
      const scripted = await fetch(`${url}/__fake/script`, {
        method: 'POST',
        body: JSON.stringify({ turns: [{ text: 'from the script' }] }),
      });
      expect(await scripted.json()).toEqual({ ok: true, queued: 1 });
      const client = new Anthropic({ apiKey: 'sk-cli', baseURL: url, maxRetries: 0 });
      const message = await client.messages
        .stream({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })
        .finalMessage();
      expect(message.content).toMatchObject([{ type: 'text', text: 'from the script' }]);
      const recorded = (await (await fetch(`${url}/__fake/requests`)).json()) as {
        requests: Array<{ body: { model: string } }>;
      };
      expect(recorded.requests.map((request) => request.body.model)).toEqual([MODEL]);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
