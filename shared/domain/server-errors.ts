import { codedFamily, type CodedText } from './host-wording';

/**
 * The failures of a call to a server, or about one by name, as codes with their facts; the renderer words
 * them from renderer/i18n/locales/<locale>/server-errors.json. `subject` is the MCP method with what it is
 * about (`tools/call`, `resources/read file:///a`), `detail` the words of the server, the network or the OS.
 */
export type ServerErrorMessages = {
  'server-errors.not-found': { name: string };
  'server-errors.not-supervised': { name: string };
  'server-errors.name-taken': { name: string };
  'server-errors.shutting-down': Record<string, never>;
  'server-errors.reconnecting': { name: string };
  'server-errors.not-ready': { name: string; status: string };
  'server-errors.exited-during': { name: string; method: string; exit: string };
  'server-errors.stopped-during': { name: string; method: string };
  'server-errors.closed-during': { name: string; method: string };
  'server-errors.unreachable-during': { name: string; method: string; detail: string };
  'server-errors.cancelled': { name: string; subject: string };
  'server-errors.timeout': { name: string; subject: string; seconds: number };
  'server-errors.max-total-time': { name: string; subject: string; seconds: number };
  'server-errors.session-lost': { name: string; subject: string };
  'server-errors.failed': { name: string; subject: string; detail: string };
  'server-errors.answered-error': { name: string; subject: string; errorCode: string; detail: string };
};
export type ServerErrorCode = keyof ServerErrorMessages;

/** An exit status as a fact: the signal's name (`SIGKILL`), else the exit code (`1`). */
export function exitFact(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ?? String(exit.code ?? 'unknown');
}

const exitWords = (exit: string): string => (exit.startsWith('SIG') ? `signal ${exit}` : `code ${exit}`);

/** A server's failure in English with its code (the English is what Berth always said). */
export const serverError = codedFamily<ServerErrorMessages>({
  'server-errors.not-found': ({ name }) => `No server named "${name}"`,
  'server-errors.not-supervised': ({ name }) => `no server named '${name}'`,
  'server-errors.name-taken': ({ name }) => `A server named "${name}" already exists`,
  'server-errors.shutting-down': () => 'the host is shutting down',
  'server-errors.reconnecting': ({ name }) => `server '${name}' is reconnecting`,
  'server-errors.not-ready': ({ name, status }) => `server '${name}' is ${status}, not ready`,
  'server-errors.exited-during': ({ name, method, exit }) =>
    `server '${name}' exited (${exitWords(exit)}) while ${method} was in progress`,
  'server-errors.stopped-during': ({ name, method }) => `server '${name}' was stopped while ${method} was in progress`,
  'server-errors.closed-during': ({ name, method }) =>
    `server '${name}' closed the connection while ${method} was in progress`,
  'server-errors.unreachable-during': ({ name, method, detail }) =>
    `server '${name}' could not be reached while ${method} was in progress: ${detail}`,
  'server-errors.cancelled': ({ name, subject }) => `${subject} on server '${name}' was cancelled`,
  'server-errors.timeout': ({ name, subject, seconds }) =>
    `${subject} on server '${name}' did not answer within ${seconds} s`,
  'server-errors.max-total-time': ({ name, subject, seconds }) =>
    `${subject} on server '${name}' did not finish within its maximum total time of ${seconds} s (time spent waiting for your answers not counted)`,
  'server-errors.session-lost': ({ name, subject }) =>
    `server '${name}' ended the session before ${subject} ran; reconnecting`,
  'server-errors.failed': ({ name, subject, detail }) => `${subject} on server '${name}' failed: ${detail}`,
  'server-errors.answered-error': ({ name, subject, errorCode, detail }) =>
    `server '${name}' answered ${subject} with error ${errorCode}: ${detail}`,
});

/** "server 'x' is starting, not ready: cannot call tool 'y'": the action is English, so it stays out of the code's facts. */
export function notReadyError(name: string, status: string, action: string): CodedText {
  const words = serverError('server-errors.not-ready', { name, status });
  return { ...words, text: `${words.text}: cannot ${action}` };
}

/** Seconds as the messages give them (one decimal): 30000 ms → 30. */
export function secondsOf(ms: number): number {
  return Math.round(ms / 100) / 10;
}
