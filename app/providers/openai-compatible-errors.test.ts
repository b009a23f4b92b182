import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from 'openai';
import { describe, expect, it } from 'vitest';
import { providerName, toOpenAiLlmError } from './openai-compatible-errors';
import type { OpenAiErrorContext } from './openai-compatible-errors';

// How other servers word the same failures (the socket-level cases run
// against real servers in openai-compatible*.test.ts).

const CONTEXT: OpenAiErrorContext = {
  baseURL: 'https://openrouter.ai/api/v1',
  presetName: 'OpenRouter',
  hadKey: true,
  model: 'meta/llama-3-8b',
  sentTools: true,
};

function headers(values: Record<string, string> = {}): Headers {
  return new Headers(values);
}

describe('toOpenAiLlmError', () => {
  it('recognises missing tool support as each server says it, only when tools were sent', () => {
    const cases = [
      new NotFoundError(
        404,
        {
          message:
            'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs',
        },
        undefined,
        headers(),
      ),
      new BadRequestError(
        400,
        { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
        undefined,
        headers(),
      ),
      new InternalServerError(500, { message: 'tools param requires --jinja flag' }, undefined, headers()),
      new BadRequestError(400, { message: 'This model does not support function calling.' }, undefined, headers()),
    ];
    for (const error of cases)
      expect(toOpenAiLlmError(error, CONTEXT)).toMatchObject({ kind: 'bad-request', unsupported: 'tools' });
    expect(toOpenAiLlmError(cases[1], { ...CONTEXT, sentTools: false })).toMatchObject({
      kind: 'bad-request',
      unsupported: undefined,
    });
  });

  it("OpenAI's model_not_found and other servers' wording read as model not found: <id>", () => {
    const openAi = new NotFoundError(
      404,
      { message: 'The model `gpt-9` does not exist or you do not have access to it.', code: 'model_not_found' },
      undefined,
      headers(),
    );
    expect(
      toOpenAiLlmError(openAi, { baseURL: 'https://api.openai.com/v1', hadKey: true, model: 'gpt-9' }).message,
    ).toBe(
      'api.openai.com answered: model not found: gpt-9 (404: The model `gpt-9` does not exist or you do not have access to it.). Pick a model it lists in Settings.',
    );
    const openRouter = new BadRequestError(
      400,
      { message: 'meta/llama-3-8b is not a valid model ID' },
      undefined,
      headers(),
    );
    expect(toOpenAiLlmError(openRouter, { ...CONTEXT, sentTools: false })).toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining('OpenRouter answered: model not found: meta/llama-3-8b'),
    });
  });

  it('reads retry-after-ms and HTTP-date retry-after; a stop is a stop', () => {
    const inMs = new RateLimitError(429, { message: 'slow down' }, undefined, headers({ 'retry-after-ms': '1500' }));
    expect(toOpenAiLlmError(inMs, CONTEXT).message).toBe(
      'Rate limited by OpenRouter (429: slow down). Try again in 2 s.',
    );
    const date = new RateLimitError(
      429,
      { message: 'slow down' },
      undefined,
      headers({ 'retry-after': new Date(Date.now() + 30_000).toUTCString() }),
    );
    expect(toOpenAiLlmError(date, CONTEXT).message).toMatch(/Try again in (29|30|31) s\.$/);
    const none = new RateLimitError(429, { message: 'slow down' }, undefined, headers());
    expect(toOpenAiLlmError(none, CONTEXT).message).toBe(
      'Rate limited by OpenRouter (429: slow down). Wait a moment, then retry.',
    );
    expect(toOpenAiLlmError(new APIUserAbortError(), CONTEXT)).toMatchObject({ kind: 'aborted' });
    expect(
      toOpenAiLlmError(APIError.generate(418, { error: { message: 'teapot' } }, undefined, headers()), CONTEXT),
    ).toMatchObject({ kind: 'bad-request', status: 418 });
  });

  it("Node fetch's own 5-minute limits are timeouts", () => {
    const cause = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
    });
    expect(
      toOpenAiLlmError(new APIConnectionError({ cause }), { baseURL: 'http://127.0.0.1:11434/v1', hadKey: false }),
    ).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/^Ollama sent nothing for 5 minutes/),
    });
  });

  it('names local servers by their usual ports, else by host', () => {
    expect(providerName({ baseURL: 'http://127.0.0.1:11434/v1' })).toBe('Ollama');
    expect(providerName({ baseURL: 'http://localhost:1234/v1' })).toBe('LM Studio');
    expect(providerName({ baseURL: 'http://192.168.1.5:11434/v1' })).toBe('192.168.1.5');
    expect(providerName({ baseURL: 'http://127.0.0.1:8000/v1', presetName: 'vLLM' })).toBe('vLLM');
  });
});
