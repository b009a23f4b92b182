import { z } from 'zod';
import { ServerStateSchema } from '../domain/server';
import { method } from './define';

const byName = z.object({ name: z.string().min(1).max(200) }).strict();

/** OAuth sign-in for remote servers (the flow is described in docs/ARCHITECTURE.md). */
export const oauthMethods = {
  'servers.signIn': method({
    summary:
      'Start an OAuth sign-in to a remote server. Answers once the authorization page is known: `opened` says whether Berth opened it in the system browser; if not (browser mode), the renderer opens `authorizationUrl`. The server restarts when the sign-in completes; a failure is written to its log.',
    input: byName,
    output: z.object({ authorizationUrl: z.string().url(), opened: z.boolean() }).strict(),
  }),
  'servers.signOut': method({
    summary:
      "Forget a remote server's OAuth tokens and client registration; a running server is restarted (and then asks for a sign-in).",
    input: byName,
    output: ServerStateSchema,
  }),
};
