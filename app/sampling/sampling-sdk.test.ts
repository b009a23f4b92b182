import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PendingRequestOf } from '../../shared/domain/pending';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import { fixedSamplingModels } from './candidate-models';
import { SamplingReview } from './sampling-review';

/** A real SDK server whose tool asks the client for a completion, and a real SDK client answering through SamplingReview. */
async function connect(review: SamplingReview) {
  const server = new McpServer({ name: 'sampler', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('ask', { inputSchema: { prompt: z.string() } }, async ({ prompt }, ctx) => {
    try {
      const result = await ctx.mcpReq.requestSampling({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        maxTokens: 50,
      });
      const content = Array.isArray(result.content) ? result.content[0] : result.content;
      return {
        content: [
          { type: 'text', text: `model ${result.model} said: ${content?.type === 'text' ? content.text : '?'}` },
        ],
      };
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      return { content: [{ type: 'text', text: `sampling failed: ${code} ${message}` }], isError: true };
    }
  });
  const client = new Client({ name: 'berth-test', version: '0.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler('sampling/createMessage', (request, ctx) =>
    review.handle('sampler', request.params, { signal: ctx.mcpReq.signal }),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

function next<K extends 'sampling' | 'sampling-answer'>(
  pending: PendingRequests,
  kind: K,
): Promise<PendingRequestOf<K>> {
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === kind) {
        stop();
        resolve(change.request as PendingRequestOf<K>);
      }
    });
  });
}

describe('SamplingReview behind a real SDK client', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const setup = async () => {
    const pending = new PendingRequests();
    const review = new SamplingReview({
      pending,
      logs: new LogCollector(),
      models: fixedSamplingModels([], 'claude-test'),
      generate: async (request) => {
        const first = request.messages[0]?.content;
        const text = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '';
        return { content: { type: 'text', text: `echo: ${text}` }, stopReason: 'endTurn' };
      },
    });
    const connection = await connect(review);
    close = connection.close;
    return { pending, client: connection.client };
  };

  it('the edited prompt and the edited answer reach the server', async () => {
    const { pending, client } = await setup();
    const call = client.callTool({ name: 'ask', arguments: { prompt: 'original' } });
    pending.answer((await next(pending, 'sampling')).id, {
      decision: 'approve',
      messages: [{ role: 'user', content: { type: 'text', text: 'edited prompt' } }],
    });
    const answer = await next(pending, 'sampling-answer');
    expect(answer.payload.result.content).toEqual({ type: 'text', text: 'echo: edited prompt' });
    pending.answer(answer.id, {
      decision: 'approve',
      content: { type: 'text', text: 'echo: edited prompt, edited answer' },
    });
    const result = await call;
    expect(result.content).toEqual([
      { type: 'text', text: 'model claude-test said: echo: edited prompt, edited answer' },
    ]);
  });

  it('a rejection reaches the server as JSON-RPC error -1', async () => {
    const { pending, client } = await setup();
    const call = client.callTool({ name: 'ask', arguments: { prompt: 'hi' } });
    pending.answer((await next(pending, 'sampling')).id, { decision: 'reject' });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'sampling failed: -1 User rejected sampling request' }]);
  });
});
