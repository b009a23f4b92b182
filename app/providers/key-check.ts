import type { KeyCheck } from '../../shared/contract/providers';
import { errorMessage } from '../../shared/error-message';
import { LlmError } from './llm-provider';
import type { ProviderClient } from './provider-client';

/**
 * A saved key, checked with the provider's cheapest call (ProviderClient.check without a model: Anthropic lists one
 * model, an OpenAI-compatible server its models). Only the provider's 401 or 403 says the key is wrong; anything
 * else (offline, a timeout, a 5xx, a 429) leaves the key saved and unchecked, with the reason.
 */
export async function checkKey(
  client: Pick<ProviderClient, 'check'>,
  provider: string,
  signal: AbortSignal,
): Promise<KeyCheck> {
  try {
    await client.check({ signal });
    return { result: 'works' };
  } catch (error) {
    // A status, not only the kind: "add a key first" is an auth error no provider said.
    if (error instanceof LlmError && (error.status === 401 || error.status === 403))
      return { result: 'refused', provider, status: error.status, detail: providerWords(error) };
    if (error instanceof LlmError)
      return {
        result: 'unchecked',
        reason: error.message,
        ...(error.hostMessage !== undefined ? { reasonMessage: error.hostMessage } : {}),
      };
    return { result: 'unchecked', reason: errorMessage(error) };
  }
}

/** The provider's own words for the refusal (its error body's message), else Berth's English for it. */
function providerWords(error: LlmError): string {
  const detail = error.hostMessage?.params?.detail;
  return typeof detail === 'string' && detail.trim() !== '' ? detail : error.message;
}
