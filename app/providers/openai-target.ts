import { MISTRAL_TOOL_IDS, OPENAI_TOOL_IDS } from './tool-call-ids';
import type { ToolCallIdRule } from './tool-call-ids';

// What one OpenAI-compatible request must look like for where it goes: the
// API behind the base URL, and the model (the same Mistral model has the same
// chat template on api.mistral.ai, vLLM, llama.cpp or LM Studio).

/** The forms a request takes for its target. */
export interface ChatCompletionsTarget {
  /** Which tool call ids it takes (tool-call-ids.ts). */
  toolIds: ToolCallIdRule;
  /** Tool schemas in the strict subset (openai-tool-schema.ts). */
  strictSchemas: boolean;
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** Mistral's families; their templates check the 9-character ids wherever they run. */
const MISTRAL_MODEL = /(^|[^a-z])(mistral|mixtral|ministral|codestral|devstral|magistral|pixtral|voxtral)/i;

/** Models behind a Gemini front, whichever proxy (OpenRouter, LiteLLM) passes their tools on. */
const GEMINI_MODEL = /(^|[^a-z])gemini/i;

export function chatCompletionsTarget(baseURL: string, model: string): ChatCompletionsTarget {
  const host = hostOf(baseURL);
  const mistral = host === 'mistral.ai' || host.endsWith('.mistral.ai') || MISTRAL_MODEL.test(model);
  // Gemini's OpenAI-compatible endpoint, and Vertex AI's.
  const gemini =
    host === 'generativelanguage.googleapis.com' ||
    host.endsWith('aiplatform.googleapis.com') ||
    GEMINI_MODEL.test(model);
  return { toolIds: mistral ? MISTRAL_TOOL_IDS : OPENAI_TOOL_IDS, strictSchemas: gemini };
}

/**
 * A 400 that says a tool schema was refused: some servers (vLLM builds with a
 * grammar backend, proxies in front of Gemini) are strict without a name that
 * says so, and are asked again with the strict subset.
 */
export function refusedToolSchema(detail: string): boolean {
  return /unknown name|cannot find field|invalid json payload|json[ _-]?schema|\$ref|\$defs|\$schema|additionalProperties|unsupported (keyword|format)|function_declarations/i.test(
    detail,
  );
}
