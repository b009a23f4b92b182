import { describe, expect, it } from 'vitest';
import {
  looksLikeError,
  pickErrorLine,
  serverLineHint,
  startFailureText,
  startFailureWords,
} from './server-start-error';

describe('serverLineHint', () => {
  it.each([
    ['getaddrinfo ENOTFOUND mcp.stripe.com', 'mcp.stripe.com'],
    ['Error: getaddrinfo EAI_AGAIN api.notion.com', 'api.notion.com'],
    ['curl: (6) Could not resolve host: example.org', 'example.org'],
    ['TypeError: fetch failed', undefined],
    ['connect ENETUNREACH 10.0.0.1:443', undefined],
  ])('%s: no network, host %s', (line, host) => {
    expect(serverLineHint(line)).toEqual({ kind: 'network', host });
  });

  it.each([
    'Error: 401 Unauthorized',
    'HTTP 403 Forbidden',
    'STRIPE_SECRET_KEY is required: pass your API key',
    'Invalid API key provided: sk_test_****',
    'missing token: set GITHUB_PERSONAL_ACCESS_TOKEN',
    'Authentication failed for user',
  ])('%s: needs a key', (line) => {
    expect(serverLineHint(line)).toEqual({ kind: 'key' });
  });

  it.each(['Server running on stdio', 'connect ECONNREFUSED 127.0.0.1:5432', 'Error: boom'])(
    '%s: nothing the person can act on from here',
    (line) => {
      expect(serverLineHint(line)).toBeUndefined();
    },
  );
});

describe('looksLikeError', () => {
  it('tells an error line from a banner', () => {
    expect(looksLikeError('Stripe MCP Server running on stdio')).toBe(false);
    expect(looksLikeError('Every tool is registered')).toBe(false);
    expect(looksLikeError('Error: boom')).toBe(true);
    expect(looksLikeError('connect ECONNREFUSED 127.0.0.1:5432')).toBe(true);
    expect(looksLikeError('could not open the database: permission denied')).toBe(true);
  });
});

describe('pickErrorLine', () => {
  it("finds a Node error's message above its stack frames and fields, the one naming a host first", () => {
    const dump = [
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:13502:13 {',
      '  [cause]: Error: getaddrinfo ENOTFOUND mcp.stripe.com',
      '      at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26) {',
      '    errno: -3008,',
      "    code: 'ENOTFOUND',",
      "    hostname: 'mcp.stripe.com'",
      '  }',
      '}',
      'retrying in 5 s',
    ];
    expect(pickErrorLine(dump)).toBe('[cause]: Error: getaddrinfo ENOTFOUND mcp.stripe.com');
  });

  it('takes the newest error line when none has advice, and none from a banner', () => {
    expect(pickErrorLine(['Error: first', 'Error: "TOKEN" is required for x', 'listening'])).toBe(
      'Error: "TOKEN" is required for x',
    );
    expect(pickErrorLine(['Server running on stdio', ''])).toBeUndefined();
  });
});

describe('startFailureText', () => {
  it('names the handshake and the server line, with what to do about it', () => {
    expect(
      startFailureText({
        code: 'timeout',
        seconds: 30,
        stage: 'handshake',
        serverLine: 'getaddrinfo ENOTFOUND mcp.stripe.com',
      }),
    ).toBe(
      'did not finish the MCP handshake within 30 s; cannot reach mcp.stripe.com — no network? (stderr: getaddrinfo ENOTFOUND mcp.stripe.com)',
    );
    expect(
      startFailureText({ code: 'exited', exit: '1', stage: 'handshake', serverLine: 'Error: 401 Unauthorized' }),
    ).toBe(
      "exited (code 1) during the MCP handshake; it probably needs an API key or token — set it in the server's environment variables (stderr: Error: 401 Unauthorized)",
    );
  });

  it('says the handshake worked when the tool listing failed', () => {
    expect(startFailureText({ code: 'failed', detail: 'MCP error -32603: fetch failed', stage: 'tools' })).toBe(
      'finished the MCP handshake, but listing its tools failed: MCP error -32603: fetch failed; cannot reach its service — no network?',
    );
    expect(startFailureText({ code: 'timeout', seconds: 30, stage: 'tools' })).toBe(
      'finished the MCP handshake, but listing its tools did not finish within 30 s',
    );
    expect(startFailureText({ code: 'exited', exit: 'SIGSEGV', stage: 'tools' })).toBe(
      'exited (signal SIGSEGV) while listing its tools, after the MCP handshake',
    );
  });

  it('keeps a line it has no advice for as it was', () => {
    expect(
      startFailureText({ code: 'exited', exit: '1', stage: 'handshake', serverLine: 'fatal: simulated failure' }),
    ).toBe('exited (code 1) during the MCP handshake — stderr: fatal: simulated failure');
    expect(
      startFailureText({ code: 'failed', detail: 'Server sent invalid initialize result', stage: 'handshake' }),
    ).toBe('MCP handshake failed: Server sent invalid initialize result');
  });
});

describe('startFailureWords', () => {
  it('sends the stage, the advice and the server line as facts beside the same English', () => {
    const words = startFailureWords({
      code: 'exited',
      exit: '1',
      stage: 'handshake',
      serverLine: 'Error: 401 Unauthorized',
    });
    expect(words.text).toBe(
      startFailureText({ code: 'exited', exit: '1', stage: 'handshake', serverLine: 'Error: 401 Unauthorized' }),
    );
    expect(words.hostMessage).toEqual({
      code: 'server-start.handshake-exited',
      params: {
        stage: 'handshake',
        exitKind: 'code',
        exit: '1',
        tail: 'keyStderr',
        serverLine: 'Error: 401 Unauthorized',
        host: '',
      },
    });
  });

  it('takes advice from the failure itself when the server wrote nothing, without a line to quote', () => {
    expect(startFailureWords({ code: 'failed', detail: 'fetch failed', stage: 'tools' }).hostMessage).toEqual({
      code: 'server-start.handshake-failed',
      params: { stage: 'tools', detail: 'fetch failed', tail: 'service', serverLine: '', host: '' },
    });
    expect(
      startFailureWords({
        code: 'timeout',
        seconds: 30,
        stage: 'handshake',
        serverLine: 'getaddrinfo ENOTFOUND a.example',
      }).hostMessage.params,
    ).toMatchObject({ tail: 'networkStderr', host: 'a.example', seconds: 30 });
  });
});
