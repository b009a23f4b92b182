// Claude 4.6 and later refuse a request that ends with an assistant message (400: "This model does not support
// assistant message prefill. The conversation must end with a user message."); older models go on from it.
// Ids: claude-3-5-sonnet-…, claude-sonnet-4-5-20250929, claude-opus-4-1, claude-opus-4-6, claude-opus-5…

const VERSION = /^claude-(?:[a-z]+-)?(\d+)(?:-(\d{1,2}))?(?:-|$)/;

/** Whether the Claude model `model` takes a prefill; false for an id it cannot read (a user turn works everywhere). */
export function takesPrefill(model: string): boolean {
  const match = VERSION.exec(model);
  if (match === null) return false;
  const major = Number(match[1]);
  const minor = match[2] === undefined ? 0 : Number(match[2]);
  return major < 4 || (major === 4 && minor < 6);
}
