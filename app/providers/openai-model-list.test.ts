import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleClient } from './openai-compatible';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A /v1/models that answers `data` as given (the fields each server names its context window by). */
async function listing(data: unknown[]): Promise<string> {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}/v1`;
}

describe("an OpenAI-compatible /models' context windows", () => {
  it("read each server's name for it: OpenRouter's context_length, vLLM's max_model_len, LM Studio's max_context_length", async () => {
    const baseURL = await listing([
      { id: 'openrouter/model', context_length: 131_072 },
      { id: 'vllm-model', max_model_len: 32_768 },
      { id: 'lmstudio-model', max_context_length: 8_192 },
      { id: 'groq-model', context_window: 65_536 },
      { id: 'plain' },
    ]);
    const client = new OpenAiCompatibleClient({ baseURL, maxRetries: 0 });
    await expect(client.listModels()).resolves.toEqual([
      { id: 'openrouter/model', contextWindow: 131_072 },
      { id: 'vllm-model', contextWindow: 32_768 },
      { id: 'lmstudio-model', contextWindow: 8_192 },
      { id: 'groq-model', contextWindow: 65_536 },
      { id: 'plain' },
    ]);
  });

  it('a window that is not a whole positive number is left out, and the model is still listed', async () => {
    const baseURL = await listing([
      { id: 'odd', context_length: 'lots' },
      { id: 'negative', max_model_len: -1, max_context_length: 4_096 },
    ]);
    const client = new OpenAiCompatibleClient({ baseURL, maxRetries: 0 });
    await expect(client.listModels()).resolves.toEqual([{ id: 'odd' }, { id: 'negative', contextWindow: 4_096 }]);
  });
});
