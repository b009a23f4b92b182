import { codedFamily } from './host-wording';

/**
 * A reason inside another (the restart policy's words around a crash): its English as `reason`; its code
 * travels as the message's `cause` (InnerReason, host-wording.ts), so the renderer words the inner reason too.
 */
export type NestedReason = { reason: string };

/** Why a stdio server's link broke while its process still ran (the transport's `brokenReason`); Berth then stops it. */
export const OUTPUT_CLOSED = 'closed its output (stdout) while still running';

/**
 * Why a server is in its state besides a failed start's own words (server-start-error.ts): who stopped it,
 * what it needs, how a ready server went away (`exit` is exitFact's signal name or exit code, `stderr` the
 * server's last line there, `detail` the transport's or the network's words). The renderer words them from renderer/i18n/locales/<locale>/server-state.json; `where` is
 * a remote server's address.
 */
export type ServerStateMessages = {
  'server-state.stopped': Record<string, never>;
  'server-state.config-changed': Record<string, never>;
  'server-state.restarting': Record<string, never>;
  'server-state.removed': Record<string, never>;
  'server-state.host-shut-down': Record<string, never>;
  'server-state.needs-sign-in': { where: string };
  'server-state.unreachable': { where: string; detail: string };
  'server-state.exited': { exit: string };
  'server-state.exited-stderr': { exit: string; stderr: string };
  'server-state.closed': Record<string, never>;
  'server-state.closed-stderr': { stderr: string };
  'server-state.broken': { detail: string };
  'server-state.session-gone': Record<string, never>;
  'server-state.connection-lost': { where: string; detail: string };
  'server-state.connection-lost-server': { detail: string };
  'server-state.restart-off': NestedReason;
  'server-state.gave-up': NestedReason & { restarts: number };
  'server-state.output-closed': Record<string, never>;
};
export type ServerStateCode = keyof ServerStateMessages;

/** A state's reason as a code and its parameters, typed together. */
export type ServerStateWording = {
  [C in ServerStateCode]: { code: C; params: ServerStateMessages[C] };
}[ServerStateCode];

// An exit as a fact (exitFact in server-errors.ts): a signal's name, else the exit code.
const exitWords = (exit: string): string => (exit.startsWith('SIG') ? `signal ${exit}` : `code ${exit}`);

/** A server state's reason in English with its code (the English is what Berth always said). */
export const serverStateReason = codedFamily<ServerStateMessages>({
  'server-state.stopped': () => 'stopped',
  'server-state.config-changed': () => 'config changed',
  'server-state.restarting': () => 'restarting',
  'server-state.removed': () => 'removed',
  'server-state.host-shut-down': () => 'host shut down',
  'server-state.needs-sign-in': ({ where }) =>
    `${where} needs you to sign in (OAuth): press Sign in in the server's details`,
  'server-state.unreachable': ({ where, detail }) => `could not reach ${where}: ${detail}`,
  'server-state.exited': ({ exit }) => `exited with ${exitWords(exit)}`,
  'server-state.exited-stderr': ({ exit, stderr }) => `exited with ${exitWords(exit)} — stderr: ${stderr}`,
  'server-state.closed': () => 'the connection to the server closed',
  'server-state.closed-stderr': ({ stderr }) => `the connection to the server closed — stderr: ${stderr}`,
  'server-state.broken': ({ detail }) => `${detail}; Berth stopped it`,
  'server-state.session-gone': () => 'the server no longer knows this session (it restarted or ended it); reconnecting',
  'server-state.connection-lost': ({ where, detail }) => `lost the connection to ${where}: ${detail}`,
  'server-state.connection-lost-server': ({ detail }) => `lost the connection to the server: ${detail}`,
  'server-state.restart-off': ({ reason }) => `${reason} (automatic restart is off)`,
  'server-state.gave-up': ({ restarts, reason }) =>
    `gave up after ${restarts} ${restarts === 1 ? 'restart' : 'restarts'}: ${reason}`,
  'server-state.output-closed': () => `${OUTPUT_CLOSED}; Berth stopped it`,
});
