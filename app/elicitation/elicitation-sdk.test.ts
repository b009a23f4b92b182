import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingRequestOf } from '../../shared/domain/pending';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import { ElicitationFlow } from './elicitation-flow';

function next(pending: PendingRequests): Promise<PendingRequestOf<'elicitation'>> {
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === 'elicitation') {
        stop();
        resolve(change.request as PendingRequestOf<'elicitation'>);
      }
    });
  });
}

/** A real SDK server with a form tool and a URL tool, and a real SDK client answering through ElicitationFlow. */
async function setup() {
  const pending = new PendingRequests();
  const opened: string[] = [];
  const flow = new ElicitationFlow({
    pending,
    logs: new LogCollector(),
    openExternal: async (url) => void opened.push(url),
  });
  const server = new McpServer({ name: 'asker', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('form', {}, async (ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      message: 'Your details',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'integer', minimum: 0 },
          colours: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } },
        },
        required: ['name'],
      },
    });
    return { content: [{ type: 'text', text: JSON.stringify(result) }] };
  });
  server.registerTool('link', {}, async (ctx) => {
    const result = await ctx.mcpReq.elicitInput({
      mode: 'url',
      message: 'Authorize',
      elicitationId: 'auth-1',
      url: 'https://auth.example.com/start',
    });
    if (result.action === 'accept') await server.server.createElicitationCompletionNotifier('auth-1')();
    return { content: [{ type: 'text', text: result.action }] };
  });
  const client = new Client(
    { name: 'berth-test', version: '0.0.0' },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  client.setRequestHandler('elicitation/create', (request, ctx) =>
    flow.handle('asker', request.params, { signal: ctx.mcpReq.signal }),
  );
  const completed = new Promise<string>((resolve) =>
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      flow.complete('asker', notification.params.elicitationId);
      resolve(notification.params.elicitationId);
    }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { pending, flow, client, opened, completed, close: () => Promise.all([client.close(), server.close()]) };
}

describe('ElicitationFlow behind a real SDK client', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('form values typed as text reach the server as typed JSON', async () => {
    const env = await setup();
    close = env.close;
    const call = env.client.callTool({ name: 'form', arguments: {} });
    const prompt = await next(env.pending);
    env.pending.answer(prompt.id, { action: 'accept', content: { name: 'Ada', age: '36', colours: ['blue'] } });
    const result = await call;
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, colours: ['blue'] },
    });
  });

  it('URL mode: consent, open, then the completion notification clears the waiting note', async () => {
    const env = await setup();
    close = env.close;
    const call = env.client.callTool({ name: 'link', arguments: {} });
    const prompt = await next(env.pending);
    expect(prompt.payload).toMatchObject({ mode: 'url', domain: 'auth.example.com' });
    env.pending.answer(prompt.id, { action: 'accept' });
    expect((await call).content).toEqual([{ type: 'text', text: 'accept' }]);
    expect(env.opened).toEqual(['https://auth.example.com/start']);
    expect(await env.completed).toBe('auth-1');
    expect(env.flow.awaiting()).toEqual([]);
  });
});
