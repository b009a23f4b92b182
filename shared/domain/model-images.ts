// Whether a model takes images, when nobody said. The multi-provider apps people
// compare Berth with (Cherry Studio, LibreChat, Continue) guess vision from the
// model's name and let the person override it per model, and treat a name they
// do not know as text-only. Berth does the same: a wrong "yes" costs a failed
// request (or, on some local servers, an image silently dropped while the
// model answers as if it saw it), a wrong "no" costs a note the model and the
// person can both read — and the switch in Settings fixes either. Anthropic's
// models endpoint says it outright (`capabilities.image_input`); that wins when
// a listing gave it. Zod-free: the renderer shows the same default.

/** Families known to take image input, matched against the model's own id (after any `vendor/` prefix). */
const VISION_FAMILIES: readonly RegExp[] = [
  // Every Claude from Claude 3 on; Claude 2 and Instant read text only.
  /^claude-(?!2|instant)/,
  /^(chatgpt-)?gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4\.5/,
  /^gpt-4-turbo/,
  /^gpt-4-vision/,
  /^gpt-5/,
  /^o1(?!-mini|-preview)/,
  /^o3(?!-mini)/,
  /^o4-mini/,
  /^gemini/,
  /^gemma-?3(?!n)/,
  /^grok-(2-vision|4)/,
  /^llama-?4/,
  /^pixtral/,
  /^mistral-(small-?3\.[12]|medium-?3)/,
  /llava/,
  /vision/,
  /moondream/,
  /minicpm-v/,
  /internvl/,
  /deepseek-vl/,
  /qwen[\d.]*-?vl/,
  /(^|[-_.:])vl([-_.:]|$)/,
  /glm-4(\.\d)?v/,
  /phi-?[34](\.\d)?-(vision|multimodal)/,
];

/** Variants of vision families that take no images (speech, embeddings, image output). */
const NOT_VISION: readonly RegExp[] = [/audio|realtime|tts|transcribe|embed|whisper|dall-e|image-\d|moderation/];

/**
 * Berth's default for "takes images" of a model it has no word on: true for
 * the known vision families above, false for anything else.
 */
export function guessTakesImages(modelId: string): boolean {
  const id = (modelId.split('/').at(-1) ?? modelId).trim().toLowerCase();
  if (NOT_VISION.some((pattern) => pattern.test(id))) return false;
  return VISION_FAMILIES.some((pattern) => pattern.test(id));
}

/** A model's "takes images": what the person (or the provider's listing) set, else the guess. */
export function takesImages(model: { id: string; takesImages?: boolean | undefined }): boolean {
  return model.takesImages ?? guessTakesImages(model.id);
}
