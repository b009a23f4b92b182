import { z } from 'zod';
import { LogLevelSchema, ServerConfigSchema, ServerNameSchema, ServerStateSchema } from '../domain/server';
import { method } from './define';
import { SandboxChoiceSchema } from './sandbox';

const byName = z.object({ name: z.string().min(1).max(200) }).strict();

/**
 * Config as sent by the form. Secret env values the person did not change
 * come back as SECRET_MASK; the host keeps the stored value for those.
 */
const ConfigInput = ServerConfigSchema;

export const serverMethods = {
  'servers.list': method({
    summary: 'Every configured server with its live state.',
    input: z.object({}).strict(),
    output: z.array(ServerStateSchema),
  }),
  'servers.add': method({
    summary:
      'Add a server to the config (and start it if enabled); `sandbox` is set first, so a sandboxed server never starts without it.',
    input: z.object({ name: ServerNameSchema, config: ConfigInput, sandbox: SandboxChoiceSchema.optional() }).strict(),
    output: ServerStateSchema,
  }),
  'servers.update': method({
    summary: 'Change a server (optionally renaming it); restarts it if it was running.',
    input: z
      .object({
        name: z.string().min(1),
        newName: ServerNameSchema.optional(),
        config: ConfigInput,
        /**
         * When the command, arguments, working folder or address change: keep what the person
         * approved for the old one (tool permissions, folder access), bound to the new one, or
         * revoke it (the default: a different program is asked again).
         */
        approvals: z.enum(['keep', 'revoke']).optional(),
      })
      .strict(),
    output: ServerStateSchema,
  }),
  'servers.remove': method({
    summary: 'Stop the server (whole process tree) and remove it from the config.',
    input: byName,
    output: z.object({ removed: z.string() }),
  }),
  'servers.start': method({
    summary: 'Start a stopped, failed or crashed server.',
    input: byName,
    output: ServerStateSchema,
  }),
  'servers.stop': method({
    summary: 'Stop a server per spec: close stdin, SIGTERM, SIGKILL.',
    input: byName,
    output: ServerStateSchema,
  }),
  'servers.restart': method({ summary: 'Stop then start a server.', input: byName, output: ServerStateSchema }),
  'servers.setEnabled': method({
    summary: 'Enable (and start) or disable (and stop) a server, persisted in the config.',
    input: z.object({ name: z.string().min(1), enabled: z.boolean() }).strict(),
    output: ServerStateSchema,
  }),
  'servers.setLogLevel': method({
    summary:
      "Ask a server to send log notifications at this level and above (logging/setLevel, or _meta in the 2026-07-28 era); stored in the config. null goes back to the server's own default.",
    input: z.object({ name: z.string().min(1), level: LogLevelSchema.nullable() }).strict(),
    output: ServerStateSchema,
  }),
};

export const serverTopics = {
  /** One server changed (state, tools, config); the full new state. */
  'servers.changed': ServerStateSchema,
  /** A server was removed from the config. */
  'servers.removed': z.object({ name: z.string() }),
};
