import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A minimal OpenAI-compatible server that only lists models (GET /v1/models),
// as Ollama does: enough for Settings → Providers (Fetch models, Test
// connection). The full fake with chat completions (e2e/fake-llm/fake-openai.ts)
// lives on another branch; once merged it can replace this one.

export interface FakeOpenAiModelsOptions {
  /** Model ids it lists. */
  models: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
}

export class FakeOpenAiModels {
  private constructor(
    private readonly server: Server,
    /** e.g. http://127.0.0.1:PORT/v1 — what a provider's base URL is. */
    readonly baseUrl: string,
    /** Requests received, as `METHOD /path`. */
    readonly requests: readonly string[],
  ) {}

  static async start(options: FakeOpenAiModelsOptions): Promise<FakeOpenAiModels> {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
      const send = (status: number, body: unknown): void => {
        const text = JSON.stringify(body);
        response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      };
      if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
      } else if (request.method === 'GET' && request.url === '/v1/models') {
        send(200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'library' })) });
      } else {
        send(404, { error: { message: `${request.method ?? ''} ${request.url ?? ''} is not served by this fake`, type: 'not_found' } });
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new FakeOpenAiModels(server, `http://127.0.0.1:${port}/v1`, requests);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
