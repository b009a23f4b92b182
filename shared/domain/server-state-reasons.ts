import { codedFamily } from './host-wording';

/**
 * Why a server is in its state besides a failed start's own words (server-start-error.ts): who stopped it,
 * what it needs. The renderer words them from renderer/i18n/locales/<locale>/server-state.json; `where` is
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
};
export type ServerStateCode = keyof ServerStateMessages;

/** A state's reason as a code and its parameters, typed together. */
export type ServerStateWording = {
  [C in ServerStateCode]: { code: C; params: ServerStateMessages[C] };
}[ServerStateCode];

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
});
