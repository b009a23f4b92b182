import { LlmError } from '../../providers/llm-provider';

// The providers' refusals of a request above the model's context window, in their own words:
// Anthropic "prompt is too long: N tokens > M maximum", OpenAI `context_length_exceeded` ("This
// model's maximum context length is …"), and the wordings of local servers (llama.cpp, vLLM, LM Studio).
const TOO_LONG = [
  /prompt is too long/i,
  /context_length_exceeded/i,
  /maximum context length/i,
  /exceeds? the (?:available )?context (?:size|length|window)/i,
  /context (?:size|window|length) (?:has been )?exceeded/i,
  /input length and `?max_tokens`? exceed context limit/i,
];

/** Whether `error` is a provider saying the request does not fit the model's window. */
export function isPromptTooLong(error: unknown): boolean {
  return (
    error instanceof LlmError && error.kind === 'bad-request' && TOO_LONG.some((words) => words.test(error.message))
  );
}
