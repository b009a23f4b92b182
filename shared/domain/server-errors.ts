import { codedFamily, type CodedText } from './host-wording';
import { OUTPUT_CLOSED, type NestedReason } from './server-state-reasons';

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
  'server-errors.output-closed-during': { name: string; method: string };
  'server-errors.no-logging': { name: string };
  'server-errors.reconnect-failed': ReconnectWait & NestedReason;
  'server-errors.reconnect-failed-status': ReconnectWait & { status: string };
  'server-errors.reconnect-cancelled': ReconnectWait;
  'server-errors.reconnect-timeout': ReconnectWait & { seconds: number };
  /** `detail` is how the link broke, the transport's words (`brokenReason`). */
  'server-errors.link-broken-during': { name: string; detail: string; method: string };
};
export type ServerErrorCode = keyof ServerErrorMessages;

/**
 * A request waiting for its server to reconnect: its session was lost before `subject` ran, or the server
 * was already reconnecting when it came (`subject` is empty then).
 */
export type ReconnectWait = { name: string; subject: string; cause: 'session-lost' | 'reconnecting' };

/** An exit status as a fact: the signal's name (`SIGKILL`), else the exit code (`1`). */
export function exitFact(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ?? String(exit.code ?? 'unknown');
}

const exitWords = (exit: string): string => (exit.startsWith('SIG') ? `signal ${exit}` : `code ${exit}`);

const sessionLost = (name: string, subject: string): string =>
  `server '${name}' ended the session before ${subject} ran; reconnecting`;
const reconnecting = (name: string): string => `server '${name}' is reconnecting`;
const waited = ({ name, subject, cause }: ReconnectWait): string =>
  cause === 'reconnecting' ? reconnecting(name) : sessionLost(name, subject);

/** A server's failure in English with its code (the English is what Berth always said). */
export const serverError = codedFamily<ServerErrorMessages>({
  'server-errors.not-found': ({ name }) => `No server named "${name}"`,
  'server-errors.not-supervised': ({ name }) => `no server named '${name}'`,
  'server-errors.name-taken': ({ name }) => `A server named "${name}" already exists`,
  'server-errors.shutting-down': () => 'the host is shutting down',
  'server-errors.reconnecting': ({ name }) => reconnecting(name),
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
  'server-errors.session-lost': ({ name, subject }) => sessionLost(name, subject),
  'server-errors.failed': ({ name, subject, detail }) => `${subject} on server '${name}' failed: ${detail}`,
  'server-errors.answered-error': ({ name, subject, errorCode, detail }) =>
    `server '${name}' answered ${subject} with error ${errorCode}: ${detail}`,
  'server-errors.output-closed-during': ({ name, method }) =>
    `server '${name}' ${OUTPUT_CLOSED}, so ${method} got no answer`,
  'server-errors.no-logging': ({ name }) =>
    `server '${name}' does not declare the logging capability, so its log level cannot be set`,
  // The server did not come back: the state's reason (`reason`, its code nested), else its status.
  'server-errors.reconnect-failed': (facts) => `${waited(facts)}, but could not reconnect: ${facts.reason}`,
  'server-errors.reconnect-failed-status': (facts) => `${waited(facts)}, but could not reconnect: ${facts.status}`,
  'server-errors.reconnect-cancelled': (facts) => `${waited(facts)}; cancelled while waiting for the reconnect`,
  'server-errors.reconnect-timeout': (facts) => `${waited(facts)}, but it was not back within ${facts.seconds} s`,
  'server-errors.link-broken-during': ({ name, detail, method }) =>
    `server '${name}' ${detail}, so ${method} got no answer`,
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
