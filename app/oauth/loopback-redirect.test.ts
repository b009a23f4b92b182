import { describe, expect, it } from 'vitest';
import { RedirectError, listenForRedirect } from './loopback-redirect';

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => value,
    (error: unknown) => error,
  );
}

describe('listenForRedirect', () => {
  it('listens on 127.0.0.1 at /callback, takes the code with the right state, shows a page, and closes', async () => {
    const listener = await listenForRedirect({ state: 'the-state', timeoutMs: 5_000 });
    expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const favicon = await fetch(new URL('/favicon.ico', listener.redirectUrl));
    expect(favicon.status).toBe(404);
    const page = await fetch(`${listener.redirectUrl}?code=abc&state=the-state&iss=https%3A%2F%2Fas.example`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You can close this tab and return to Berth.');
    await expect(listener.response).resolves.toEqual({ code: 'abc', iss: 'https://as.example' });

    await expect(fetch(listener.redirectUrl)).rejects.toThrow();
  });

  it('answers a wrong state with a 400 page and keeps listening: a forged answer cannot abort the real sign-in', async () => {
    const listener = await listenForRedirect({ state: 'the-state', timeoutMs: 5_000 });
    let settled = false;
    void listener.response.then(
      () => (settled = true),
      () => (settled = true),
    );
    const forged = await fetch(`${listener.redirectUrl}?code=abc&state=another`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('does not belong to the sign-in Berth started');
    // Neither a missing state nor an error= answer without the right state ends the sign-in.
    expect((await fetch(`${listener.redirectUrl}?code=abc`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl}?error=access_denied&state=another`)).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);

    const real = await fetch(`${listener.redirectUrl}?code=the-code&state=the-state`);
    expect(real.status).toBe(200);
    await expect(listener.response).resolves.toEqual({ code: 'the-code', iss: undefined });
  });

  it('times out after wrong-state answers and says they were refused, without repeating what they carried', async () => {
    const listener = await listenForRedirect({ state: 'the-state', timeoutMs: 300 });
    expect((await fetch(`${listener.redirectUrl}?code=abc&state=another`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl}?code=abc&state=yet-another`)).status).toBe(400);
    const error = (await outcome(listener.response)) as RedirectError;
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe(
      'the sign-in was not finished in the browser within 0.3 s (2 answers with the wrong state came back and were refused: they did not belong to this sign-in); sign in again (and finish in the browser window that opens)',
    );
    expect(error.message).not.toContain('abc');
    await expect(fetch(`${listener.redirectUrl}?code=abc&state=the-state`)).rejects.toThrow();
  });

  it('reports an error= answer in one clean line, and escapes it on nothing the page shows', async () => {
    const listener = await listenForRedirect({ state: 's', timeoutMs: 5_000 });
    const description = encodeURIComponent('No thanks\r\n<script>alert(1)</script>');
    const page = await fetch(`${listener.redirectUrl}?error=access_denied&error_description=${description}&state=s`);
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain('<script>');
    const error = (await outcome(listener.response)) as RedirectError;
    expect(error.reason).toBe('refused');
    expect(error.message).toBe(
      'the authorization server refused the sign-in: access_denied (No thanks  <script>alert(1)</script>)',
    );
  });

  it('an answer without a code is an error', async () => {
    const listener = await listenForRedirect({ state: 's', timeoutMs: 5_000 });
    expect((await fetch(`${listener.redirectUrl}?state=s`)).status).toBe(400);
    expect(((await outcome(listener.response)) as RedirectError).reason).toBe('malformed');
  });

  it('times out with a message that says what to do, and stops listening', async () => {
    const listener = await listenForRedirect({ state: 's', timeoutMs: 150 });
    const error = (await outcome(listener.response)) as RedirectError;
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe(
      'the sign-in was not finished in the browser within 0.2 s; sign in again (and finish in the browser window that opens)',
    );
    await expect(fetch(`${listener.redirectUrl}?code=abc&state=s`)).rejects.toThrow();
  });

  it('listens on the preferred port when it is free, and on another one when it is taken', async () => {
    const first = await listenForRedirect({ state: 's', timeoutMs: 5_000 });
    const port = Number(new URL(first.redirectUrl).port);
    const second = await listenForRedirect({ state: 's', timeoutMs: 5_000, preferredPort: port });
    expect(second.redirectUrl).not.toBe(first.redirectUrl);
    first.close();
    second.close();
    expect(((await outcome(first.response)) as RedirectError).reason).toBe('closed');
    const third = await listenForRedirect({ state: 's', timeoutMs: 5_000, preferredPort: port });
    expect(third.redirectUrl).toBe(first.redirectUrl);
    third.close();
  });
});
