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

  it('refuses a wrong state with a 400 page and an error, and takes nothing after it', async () => {
    const listener = await listenForRedirect({ state: 'the-state', timeoutMs: 5_000 });
    const page = await fetch(`${listener.redirectUrl}?code=abc&state=another`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('does not belong to the sign-in Berth started');
    const error = await outcome(listener.response);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).reason).toBe('state');
    expect((error as RedirectError).message).toMatch(/wrong state/);
    expect((error as RedirectError).message).not.toContain('abc');
    await expect(fetch(`${listener.redirectUrl}?code=abc&state=the-state`)).rejects.toThrow();
  });

  it('a missing state is a wrong state', async () => {
    const listener = await listenForRedirect({ state: 'the-state', timeoutMs: 5_000 });
    expect((await fetch(`${listener.redirectUrl}?code=abc`)).status).toBe(400);
    expect(((await outcome(listener.response)) as RedirectError).reason).toBe('state');
  });

  it('reports an error= answer in one clean line, and escapes it on nothing the page shows', async () => {
    const listener = await listenForRedirect({ state: 's', timeoutMs: 5_000 });
    const description = encodeURIComponent('No thanks\r\n<script>alert(1)</script>');
    const page = await fetch(`${listener.redirectUrl}?error=access_denied&error_description=${description}&state=s`);
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain('<script>');
    const error = (await outcome(listener.response)) as RedirectError;
    expect(error.reason).toBe('refused');
    expect(error.message).toBe('the authorization server refused the sign-in: access_denied (No thanks  <script>alert(1)</script>)');
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
    expect(error.message).toBe('the sign-in was not finished in the browser within 0.2 s; sign in again (and finish in the browser window that opens)');
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
