// Server instructions as the system prompt takes them (app/chat/system-prompt.ts); the
// server's Overview says the same caps. Pure constants, no zod.

export interface InstructionsCaps {
  /** Characters of one server's instructions; longer ones are cut, with a note. */
  perServer: number;
  /** Characters of every server's instructions together; what does not fit is cut or left out, with a note. */
  total: number;
}

/**
 * 8 KiB characters per server, 24 KiB in all: room for real guidance (server-everything's is about
 * 1.5 KiB), while no server can fill the context window, or crowd out the others, with its own words.
 */
export const INSTRUCTIONS_CAPS: InstructionsCaps = { perServer: 8 * 1024, total: 24 * 1024 };
