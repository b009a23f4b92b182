import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, AuthenticationError, NotFoundError, PermissionDeniedError } from 'openai';
import { LlmError } from '../chat/llm-provider';
import type { ProviderModelInfo } from './provider-client';
import type { OpenAiClientFactory, OpenAiClientOptions } from './provider-registry';
import { PRESET_INFO } from '../../shared/domain/providers';
import { errorMessage } from '../../shared/error-message';

// A stand-in until the OpenAI-compatible chat client (app/providers/openai-compatible.ts,
// written on another branch) is merged: Settings can already list a provider's
// models and test its connection; chat through it says plainly that it is not
// part of this build. The lead replaces this factory at merge.

/** What a person reads when a chat turn reaches an OpenAI-compatible provider in this build. */
export const OPENAI_CHAT_UNAVAILABLE = 'OpenAI-compatible providers are not available in this build';

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** Words for what went wrong reaching an OpenAI-compatible server (Test connection, Fetch models). */
export function describeOpenAiError(error: unknown, options: OpenAiClientOptions, model?: string): LlmError {
  if (error instanceof LlmError) return error;
  const server = PRESET_INFO[options.preset].serverName;
  if (error instanceof APIUserAbortError) return new LlmError('aborted', 'The request was stopped.');
  if (error instanceof APIConnectionTimeoutError) return new LlmError('timeout', `${options.baseURL} did not answer in time.`);
  if (error instanceof APIConnectionError) {
    const local = options.preset === 'ollama' || options.preset === 'lmstudio';
    return new LlmError('network', `nothing is listening at ${hostOf(options.baseURL)}${local ? ` — is ${server} running?` : ' — check the base URL and the network'}`);
  }
  if (error instanceof AuthenticationError) return new LlmError('auth', `the key was rejected (401)${options.apiKey === undefined ? ' — this provider needs an API key' : ''}`, 401);
  if (error instanceof PermissionDeniedError) return new LlmError('permission', `the key may not do this (403)`, 403);
  if (error instanceof NotFoundError) {
    return model !== undefined
      ? new LlmError('not-found', `model not found: '${model}' is not served by ${options.label}`, 404)
      : new LlmError('not-found', `${options.baseURL}/models was not found (404) — check the base URL (it usually ends in /v1)`, 404);
  }
  if (error instanceof APIError) return new LlmError(error.status !== undefined && error.status >= 500 ? 'server' : 'unknown', `${options.label} answered ${error.status ?? 'an error'}: ${error.message}`, error.status);
  return new LlmError('unknown', `${options.label} could not be reached: ${errorMessage(error)}`);
}

/** A ProviderClient that can list models and test the connection, and refuses chat with {@linkcode OPENAI_CHAT_UNAVAILABLE}. */
export const modelsOnlyOpenAiClient: OpenAiClientFactory = (options) => {
  // Local servers take no key, but the SDK insists on one; they ignore what it sends.
  const client = new OpenAI({ apiKey: options.apiKey ?? 'no-key', baseURL: options.baseURL, maxRetries: 0, timeout: 15_000 });
  const listModels = async (signal?: AbortSignal): Promise<ProviderModelInfo[]> => {
    try {
      const models: ProviderModelInfo[] = [];
      for await (const model of client.models.list(signal !== undefined ? { signal } : undefined)) models.push({ id: model.id });
      return models;
    } catch (error) {
      throw describeOpenAiError(error, options);
    }
  };
  return {
    stream: () => Promise.reject(new LlmError('unknown', OPENAI_CHAT_UNAVAILABLE)),
    listModels,
    check: async ({ model, signal } = {}) => {
      const models = await listModels(signal);
      if (model !== undefined && !models.some((m) => m.id === model)) throw new LlmError('not-found', `model not found: '${model}' is not served by ${options.label}`, 404);
    },
  };
};
