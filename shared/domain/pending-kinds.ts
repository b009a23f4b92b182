// Kept apart from ./pending (zod schemas) so the renderer's first screen can list the kinds
// without loading zod.

/** Everything that waits for the person. */
export const PENDING_KINDS = [
  'tool-call',
  'sampling',
  'sampling-answer',
  'elicitation',
  'root-consent',
  'skill',
] as const;
