// What a message can carry, shared by the composer (to refuse early, with a
// reason) and the host (to check again, and to map content for the model).

/** Attachments ride inline; together they are capped so one message cannot swamp the bridge or the model. */
export const MAX_ATTACHMENTS = 20;
export const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

/** The longest message text, in characters. */
export const MAX_MESSAGE_CHARS = 100_000;

/** Image types the Anthropic Messages API accepts (the OpenAI-compatible APIs take the same). */
export const MODEL_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** The Messages API refuses images above 5 MB (decoded). */
export const MAX_MODEL_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * The largest text file (or pasted text) attached to one message, in bytes:
 * about 128k tokens, so one attachment cannot fill a model's whole context.
 */
export const MAX_TEXT_ATTACHMENT_BYTES = 512 * 1024;

/** Whether the model can look at an image of this media type. */
export function isModelImageType(mimeType: string): boolean {
  return (MODEL_IMAGE_TYPES as readonly string[]).includes(mimeType.toLowerCase());
}
