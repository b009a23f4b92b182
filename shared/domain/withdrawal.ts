import { familyWords, type EnglishOf } from './host-wording';

// Why Berth withdrew a question before the person answered it (a tool call's consent, a sampling review, a form),
// as codes the renderer words from renderer/i18n/locales/<locale>/withdrawal.json. The English is what the model
// is told (a tool call "did not run: …") and what logs say.

/** The codes of withdrawals, each with its parameters. */
export type WithdrawalMessages = {
  'withdrawal.berth-quit': Record<string, never>;
  'withdrawal.window-closed': Record<string, never>;
  'withdrawal.no-window': Record<string, never>;
  'withdrawal.server-disconnected': { server: string };
  'withdrawal.server-disconnected-because': { server: string; detail: string };
  'withdrawal.server-removed': { server: string };
  'withdrawal.server-not-configured': { server: string };
  'withdrawal.too-many-waiting': { server: string; count: number };
  'withdrawal.cancelled': Record<string, never>;
  'withdrawal.call-ended': Record<string, never>;
  'withdrawal.call-stopped': Record<string, never>;
  'withdrawal.call-failed': { detail: string };
  'withdrawal.call-finished': Record<string, never>;
};
export type WithdrawalCode = keyof WithdrawalMessages;

const ENGLISH: EnglishOf<WithdrawalMessages> = {
  'withdrawal.berth-quit': () => 'Berth quit',
  'withdrawal.window-closed': () => 'the Berth window was closed',
  'withdrawal.no-window': () => 'no Berth window is open to answer it',
  'withdrawal.server-disconnected': ({ server }) => `server '${server}' disconnected`,
  'withdrawal.server-disconnected-because': ({ server, detail }) => `server '${server}' disconnected (${detail})`,
  'withdrawal.server-removed': ({ server }) => `server '${server}' was removed`,
  'withdrawal.server-not-configured': ({ server }) => `server '${server}' is no longer configured`,
  'withdrawal.too-many-waiting': ({ server, count }) =>
    `server '${server}' already has ${count} requests waiting; this one was refused`,
  'withdrawal.cancelled': () => 'the request was cancelled',
  'withdrawal.call-ended': () => 'the tool call that asked this had already ended',
  'withdrawal.call-stopped': () => 'the tool call that asked this was stopped',
  'withdrawal.call-failed': ({ detail }) => `the tool call that asked this ended with an error: ${detail}`,
  'withdrawal.call-finished': () => 'the tool call that asked this finished without waiting for your answer',
};

/** A withdrawal's English and its code, from the same facts. */
export const withdrawal = familyWords<WithdrawalMessages>(ENGLISH);
