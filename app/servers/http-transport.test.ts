import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema } from '../../shared/domain/server';
import { exportClaudeDesktop } from '../config-import/export';
import { serializeServerConfig } from '../config/config-edit';
import { initialTransportKind } from './connection-transport';
import { describeHttpError, httpStatus, isSessionGone, isUnreachable, suggestsLegacySse } from './http-transport';
import { secretValues } from './server-log';
import { maskState } from './supervisor';

const httpError = (status: number, text = ''): SdkHttpError =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
    status,
    statusText: status === 404 ? 'Not Found' : 'Bad Request',
    text,
  });

/** What undici throws when nobody listens. */
function refused(): TypeError {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  return new TypeError('fetch failed', { cause });
}

describe('reading HTTP transport failures', () => {
  it('tells an unreachable server from one that answered', () => {
    expect(isUnreachable(refused())).toBe(true);
    expect(isUnreachable(httpError(500))).toBe(false);
    expect(isUnreachable(new Error('boom'))).toBe(false);
    expect(httpStatus(httpError(404))).toBe(404);
    expect(httpStatus(refused())).toBeUndefined();
  });

  it('reads a lost session from 404, and from the 400 "no valid session" some servers send, only when there was one', () => {
    expect(isSessionGone(httpError(404), true)).toBe(true);
    expect(
      isSessionGone(httpError(400, '{"error":{"message":"Bad Request: No valid session ID provided"}}'), true),
    ).toBe(true);
    expect(isSessionGone(httpError(400, '{"error":{"message":"bad params"}}'), true)).toBe(false);
    expect(isSessionGone(httpError(404), false)).toBe(false);
  });

  it('falls back to legacy SSE on a 4xx, but not on 401/403 (sign-in) or 5xx', () => {
    expect(suggestsLegacySse(httpError(404))).toBe(true);
    expect(suggestsLegacySse(httpError(405))).toBe(true);
    expect(suggestsLegacySse(httpError(400))).toBe(true);
    expect(suggestsLegacySse(httpError(401))).toBe(false);
    expect(suggestsLegacySse(httpError(403))).toBe(false);
    expect(suggestsLegacySse(httpError(502))).toBe(false);
    expect(suggestsLegacySse(refused())).toBe(false);
  });

  it('describes an HTTP answer in one line without its HTML', () => {
    expect(
      describeHttpError(httpError(404, '<!DOCTYPE html><html><body><pre>Cannot POST /sse</pre></body></html>\n')),
    ).toBe('HTTP 404 Not Found: Cannot POST /sse');
    expect(describeHttpError(new Error('x'))).toBeUndefined();
  });

  it('picks the first transport from the config', () => {
    expect(initialTransportKind({ url: undefined, type: undefined })).toBe('stdio');
    expect(initialTransportKind({ url: 'https://a.example/mcp', type: undefined })).toBe('streamable-http');
    expect(initialTransportKind({ url: 'https://a.example/mcp', type: 'http' })).toBe('streamable-http');
    expect(initialTransportKind({ url: 'https://a.example/mcp', type: 'sse' })).toBe('sse');
  });
});

describe('remote server config', () => {
  it('takes exactly one of command and url, https except for this machine', () => {
    expect(ServerConfigSchema.safeParse({ url: 'https://mcp.example.com/mcp' }).success).toBe(true);
    expect(ServerConfigSchema.safeParse({ url: 'http://127.0.0.1:3000/mcp', type: 'sse' }).success).toBe(true);
    expect(ServerConfigSchema.safeParse({ url: 'http://localhost/mcp' }).success).toBe(true);
    const messages = (input: unknown): string[] => {
      const parsed = ServerConfigSchema.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    expect(messages({ url: 'http://mcp.example.com/mcp' })).toEqual([expect.stringMatching(/^url: Use https:\/\//)]);
    expect(messages({ url: 'ftp://x.example/' })).toEqual([
      expect.stringMatching(/^url: The address must start with https/),
    ]);
    expect(messages({ url: 'example.com' })).toEqual([expect.stringMatching(/^url: Enter a full address/)]);
    expect(messages({ command: 'npx', url: 'https://a.example/mcp' })).toEqual([
      'url: A server has either a command (local) or a url (remote), not both',
    ]);
    expect(messages({})).toEqual([
      expect.stringMatching(/^command: "command" is missing: .* or a "url" for a remote server/),
    ]);
    expect(messages({ command: 'npx', type: 'http' })).toEqual(['type: "type": "http" needs a url']);
    const badHeader = ServerConfigSchema.safeParse({ url: 'https://a.example/mcp', headers: { 'Bad Name': 'x' } });
    const issue = badHeader.success ? undefined : badHeader.error.issues[0];
    expect(issue?.code === 'invalid_key' ? issue.issues[0]?.message : issue?.message).toMatch(/^Header names/);
  });

  it('never throws on hostile input, whatever the fields hold (found by the bridge fuzz)', () => {
    for (const type of [Object.create(null), { toString: null }, Symbol('x'), 5]) {
      expect(ServerConfigSchema.safeParse({ command: 'x', type }).success).toBe(false);
      expect(ServerConfigSchema.safeParse({ type, url: Object.create(null) }).success).toBe(false);
    }
  });

  it('writes a remote entry without an empty args list', () => {
    expect(serializeServerConfig(ServerConfigSchema.parse({ url: 'https://a.example/mcp', type: 'http' }))).toEqual({
      url: 'https://a.example/mcp',
      type: 'http',
    });
    expect(serializeServerConfig(ServerConfigSchema.parse({ command: 'npx' }))).toEqual({ command: 'npx', args: [] });
  });
});

describe('secret headers', () => {
  const config = ServerConfigSchema.parse({
    url: 'https://a.example/mcp',
    headers: { Authorization: 'Bearer tok-abcdef', 'X-Signing': 'sig-123456', 'X-Team': 'core' },
    secretHeaders: ['X-Signing'],
  });

  it('are masked in state, redacted from logs, and left out of exports', () => {
    const state = maskState({ name: 'a', config, status: 'stopped', restartCount: 0 });
    expect(state.config.headers).toEqual({ Authorization: SECRET_MASK, 'X-Signing': SECRET_MASK, 'X-Team': 'core' });
    expect(secretValues(config)).toEqual(expect.arrayContaining(['Bearer tok-abcdef', 'tok-abcdef', 'sig-123456']));
    expect(secretValues(config)).not.toContain('core');
    const exported = exportClaudeDesktop(new Map([['a', config]]));
    expect(exported.text).not.toContain('tok-abcdef');
    expect(exported.text).not.toContain('sig-123456');
    expect(exported.document.mcpServers.a).toEqual({ url: 'https://a.example/mcp', headers: { 'X-Team': 'core' } });
    expect(exported.omittedSecrets).toEqual([
      { server: 'a', key: 'Authorization' },
      { server: 'a', key: 'X-Signing' },
    ]);
  });
});
