import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { formatSeconds } from '../format-seconds';

/** What the authorization server sent back to the loopback address. */
export interface AuthorizationResponse {
  code: string;
  /** RFC 9207 `iss`, when the authorization server sends it. */
  iss: string | undefined;
}

/** Why waiting for the browser ended without a code; the message is for the person. */
export class RedirectError extends Error {
  constructor(
    readonly reason: 'refused' | 'timeout' | 'malformed' | 'closed',
    message: string,
  ) {
    super(message);
    this.name = 'RedirectError';
  }
}

/** Options for {@linkcode listenForRedirect}. */
export interface LoopbackRedirectOptions {
  /** The `state` sent with the authorization request; any other answer is refused. */
  state: string;
  /** How long the person has to finish in the browser. */
  timeoutMs: number;
  /** A port to try first (the one in the stored registration's redirect URI); a random one if it is taken. */
  preferredPort?: number;
}

/** A one-shot listener on `http://127.0.0.1:<port>/callback`. */
export interface LoopbackRedirect {
  readonly redirectUrl: string;
  /**
   * Resolves with the first answer that carries the right state; rejects on an
   * `error=` answer with the right state, or the timeout. Closes the listener either way.
   */
  readonly response: Promise<AuthorizationResponse>;
  /** Stop waiting (the sign-in failed elsewhere). */
  close(): void;
}

const PAGE_STYLE = 'font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;line-height:1.5';

function page(title: string, text: string): string {
  const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body style="${PAGE_STYLE}"><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
}

/** Text from the authorization server's redirect is shown to the person: one short line, no control characters. */
function tidy(value: string | null): string {
  return [...(value ?? '')]
    .map((char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? ' ' : char))
    .join('')
    .trim()
    .slice(0, 200);
}

function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      if (typeof address === 'object' && address !== null) resolve(address.port);
      else reject(new Error('the loopback listener has no port'));
    });
  });
}

/**
 * Listen for the authorization server's redirect on the loopback interface
 * (RFC 8252 §7.3). The first request to `/callback` with the right state
 * decides: a code resolves, an error or a missing code rejects; either way the
 * person sees a short page and the listener closes. A request with a wrong (or
 * no) state gets a 400 page and is otherwise ignored: any local process or web
 * page can reach the port, and must not be able to abort the real sign-in.
 * Other paths (a favicon) get a 404 and do not count.
 */
export async function listenForRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  let settle: { resolve: (value: AuthorizationResponse) => void; reject: (error: RedirectError) => void } | undefined;
  const response = new Promise<AuthorizationResponse>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A rejection nobody awaits yet (the browser answered before the caller looked) must not crash the host.
  response.catch(() => undefined);
  let done = false;
  /** Answers refused for their state, to explain a timeout. */
  let wrongStates = 0;
  const timing: { timer?: NodeJS.Timeout } = {};
  const server = createServer((req, res) => handle(req, res));

  const finish = (outcome: { code: string; iss: string | undefined } | RedirectError) => {
    if (done) return;
    done = true;
    clearTimeout(timing.timer);
    // Let the page reach the browser, then stop accepting anything.
    server.close();
    server.closeIdleConnections();
    if (outcome instanceof RedirectError) settle?.reject(outcome);
    else settle?.resolve(outcome);
  };

  const reply = (res: ServerResponse, status: number, title: string, text: string) => {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(page(title, text));
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback' || done) {
      reply(res, 404, 'Not found', 'Nothing to see here.');
      return;
    }
    const params = url.searchParams;
    if (!sameState(options.state, params.get('state'))) {
      wrongStates += 1;
      reply(
        res,
        400,
        'Sign-in not accepted',
        'This answer does not belong to the sign-in Berth started, so Berth ignored it. If you are signing in, finish in the browser tab Berth opened.',
      );
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      const description = tidy(params.get('error_description'));
      reply(res, 400, 'Sign-in failed', 'The sign-in did not complete. You can close this tab and return to Berth.');
      finish(
        new RedirectError(
          'refused',
          `the authorization server refused the sign-in: ${tidy(error)}${description === '' ? '' : ` (${description})`}`,
        ),
      );
      return;
    }
    const code = params.get('code');
    if (code === null || code === '') {
      reply(
        res,
        400,
        'Sign-in failed',
        'The answer carried no authorization code. Start the sign-in again from Berth.',
      );
      finish(new RedirectError('malformed', 'the authorization server redirected back without a code'));
      return;
    }
    reply(res, 200, 'Signed in', 'You can close this tab and return to Berth.');
    finish({ code, iss: params.get('iss') ?? undefined });
  }

  let port: number;
  try {
    port = await listen(server, options.preferredPort ?? 0);
  } catch (error) {
    if (options.preferredPort === undefined) throw error;
    port = await listen(server, 0);
  }
  timing.timer = setTimeout(() => {
    const refused =
      wrongStates === 0
        ? ''
        : ` (${wrongStates === 1 ? 'one answer' : `${wrongStates} answers`} with the wrong state came back and ${wrongStates === 1 ? 'was' : 'were'} refused: ${wrongStates === 1 ? 'it did' : 'they did'} not belong to this sign-in)`;
    finish(
      new RedirectError(
        'timeout',
        `the sign-in was not finished in the browser within ${formatSeconds(options.timeoutMs)}${refused}; sign in again (and finish in the browser window that opens)`,
      ),
    );
  }, options.timeoutMs);
  timing.timer.unref();
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    response,
    close: () => finish(new RedirectError('closed', 'the sign-in was stopped')),
  };
}
