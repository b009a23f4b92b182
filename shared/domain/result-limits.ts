// The per-server limit of one tool result in a model request (app/chat/results). Without zod, like
// chat-text.ts: the server detail and the chat card read these.

/** Berth's own ceiling for one result's share of a request, in estimated tokens (also bounded by a tenth of the model's context). */
export const DEFAULT_RESULT_LIMIT_TOKENS = 10_000;
/** The smallest limit Berth uses or accepts: below it the note alone would be most of the result. */
export const MIN_RESULT_LIMIT_TOKENS = 500;
/** The largest limit a person may set for a server. */
export const MAX_RESULT_LIMIT_TOKENS = 500_000;
