import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import type { RecordedOpenAiRequest } from '../../e2e/fake-llm/fake-openai';
import type { LlmStreamRequest } from './llm-provider';
import { headersFromEnvironmentCleared, OpenAiCompatibleClient } from './openai-compatible';

// Berth's own environment must not reach a provider: the `openai` package
// reads OPENAI_* variables when a client is built (see node_modules/openai/client.js).

const ASK: LlmStreamRequest = { model: 'llama3.1:8b', maxTokens: 64, messages: [{ role: 'user', content: 'hi' }] };

/** Every variable the installed package reads, set to what an attacker (or a stale shell) might hold. */
const HOSTILE_ENV: Record<string, string> = {
  OPENAI_API_KEY: 'sk-from-env-LEAK',
  OPENAI_ADMIN_KEY: 'sk-admin-from-env-LEAK',
  OPENAI_ORG_ID: 'org-from-env-LEAK',
  OPENAI_PROJECT_ID: 'proj-from-env-LEAK',
  OPENAI_WEBHOOK_SECRET: 'whsec-from-env-LEAK',
  OPENAI_LOG: 'debug',
  OPENAI_CUSTOM_HEADERS:
    'X-Leak: from-env\nAuthorization: Bearer sk-header-LEAK\nOpenAI-Organization: org-header-LEAK\n  x-other-leak :  yes  \nnot a header line',
};

/** Everything a recorded request carries, as one text, to look for any trace of the environment. */
function everything(request: RecordedOpenAiRequest | undefined): string {
  return JSON.stringify({ headers: request?.headers, body: request?.body });
}

describe('OpenAiCompatibleClient and the OPENAI_* environment', () => {
  let configured: FakeOpenAi;
  let fromEnv: FakeOpenAi;
  const logged = vi.fn();

  beforeEach(async () => {
    configured = await FakeOpenAi.start({ models: ['llama3.1:8b'] });
    // Where OPENAI_BASE_URL points: it must never be asked anything.
    fromEnv = await FakeOpenAi.start({ models: ['llama3.1:8b'] });
    for (const [name, value] of Object.entries(HOSTILE_ENV)) vi.stubEnv(name, value);
    vi.stubEnv('OPENAI_BASE_URL', fromEnv.url);
    for (const method of ['log', 'debug', 'info', 'warn', 'error'] as const)
      vi.spyOn(console, method).mockImplementation(logged);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    logged.mockReset();
    await configured.close();
    await fromEnv.close();
  });

  it('a keyless (Ollama-style) provider: no Authorization, no org/project, no custom header, only the configured base URL', async () => {
    configured.script([{ text: 'hello' }]);
    const client = new OpenAiCompatibleClient({ baseURL: configured.url, maxRetries: 0 });
    await client.check({ model: 'llama3.1:8b' });
    const response = await client.stream(ASK);
    expect(response.content).toEqual([{ type: 'text', text: 'hello' }]);

    expect(configured.modelListRequests).toBe(1);
    expect(configured.requests).toHaveLength(1);
    const headers = configured.requests[0]?.headers ?? {};
    expect(headers.authorization).toBeUndefined();
    expect(headers['openai-organization']).toBeUndefined();
    expect(headers['openai-project']).toBeUndefined();
    expect(headers['x-leak']).toBeUndefined();
    expect(headers['x-other-leak']).toBeUndefined();
    expect(everything(configured.requests[0])).not.toContain('LEAK');
    expect(fromEnv.requests).toHaveLength(0);
    expect(fromEnv.modelListRequests).toBe(0);
    // OPENAI_LOG=debug would have printed the request (the conversation).
    expect(logged).not.toHaveBeenCalled();
  });

  it('a provider with a key: exactly the configured key, whatever OPENAI_API_KEY and OPENAI_CUSTOM_HEADERS say', async () => {
    const keyed = await FakeOpenAi.start({ apiKey: 'sk-configured', models: ['llama3.1:8b'] });
    try {
      keyed.script([{ text: 'hello' }]);
      const client = new OpenAiCompatibleClient({ baseURL: keyed.url, apiKey: 'sk-configured', maxRetries: 0 });
      await client.check();
      await client.stream(ASK);
      const headers = keyed.requests[0]?.headers ?? {};
      expect(headers.authorization).toBe('Bearer sk-configured');
      expect(headers['openai-organization']).toBeUndefined();
      expect(headers['openai-project']).toBeUndefined();
      expect(headers['x-leak']).toBeUndefined();
      expect(everything(keyed.requests[0])).not.toContain('LEAK');
      expect(fromEnv.requests).toHaveLength(0);
    } finally {
      await keyed.close();
    }
  });

  it('reads the header names the way the package does: one per line, up to the first colon, trimmed, case-insensitive', () => {
    expect(headersFromEnvironmentCleared({ OPENAI_CUSTOM_HEADERS: HOSTILE_ENV['OPENAI_CUSTOM_HEADERS'] })).toEqual({
      'x-leak': null,
      authorization: null,
      'openai-organization': null,
      'x-other-leak': null,
    });
    expect(headersFromEnvironmentCleared({})).toEqual({});
    expect(headersFromEnvironmentCleared({ OPENAI_CUSTOM_HEADERS: '   ' })).toEqual({});
  });
});
