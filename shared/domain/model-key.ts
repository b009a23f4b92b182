// Which provider serves a model. A conversation, the default model and a
// sampling choice each keep one string, the model key: Anthropic's models
// keep their plain ids (so conversations saved before providers existed still
// work), every other provider's are `<providerId>:<modelId>`. Provider ids are
// short lowercase words, so the first ':' separates them even when the
// model's own id has colons or slashes (`ollama:llama3.1:8b`,
// `openrouter:openai/gpt-4o`).

/** The built-in provider: Anthropic's Messages API. Its model keys carry no prefix. */
export const ANTHROPIC_PROVIDER_ID = 'anthropic';

/** What a provider id may look like (also the check for a new provider's id). */
export const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

export interface ModelKeyParts {
  provider: string;
  model: string;
}

/** The key under which `model` of `provider` is stored and picked. */
export function modelKey(provider: string, model: string): string {
  return provider === ANTHROPIC_PROVIDER_ID ? model : `${provider}:${model}`;
}

/** The provider and the provider's own model id behind a key. */
export function splitModelKey(key: string): ModelKeyParts {
  const colon = key.indexOf(':');
  if (colon > 0) {
    const provider = key.slice(0, colon);
    if (PROVIDER_ID_PATTERN.test(provider)) return { provider, model: key.slice(colon + 1) };
  }
  return { provider: ANTHROPIC_PROVIDER_ID, model: key };
}
