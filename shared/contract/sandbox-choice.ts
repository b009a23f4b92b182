import { z } from 'zod';
import { SANDBOX_LIST_MAX, domainEntryProblem } from '../domain/sandbox';

/**
 * The sandbox a server gets from the moment it is added (the server form,
 * a registry install, a bundle install): stored before its first start, so
 * a server chosen to run sandboxed never runs a moment without it. Absent:
 * the server starts with the default (off, offered later).
 */
export const SandboxChoiceSchema = z
  .object({
    enabled: z.boolean(),
    allowedFolders: z.array(z.string().trim().min(1, 'Enter a folder').max(4_096, 'That path is too long')).max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} folders`).default([]),
    allowedDomains: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .superRefine((value, ctx) => {
            const problem = domainEntryProblem(value);
            if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
          }),
      )
      .max(SANDBOX_LIST_MAX, `At most ${SANDBOX_LIST_MAX} domains`)
      .default([]),
  })
  .strict();
export type SandboxChoiceInput = z.input<typeof SandboxChoiceSchema>;
export type SandboxChoiceValue = z.output<typeof SandboxChoiceSchema>;
