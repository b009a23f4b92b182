import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/domain/server';
import { ServerLog, TRACE_BODY_LIMIT, formatSize, redact, secretValues } from './server-log';
import { LogCollector } from './test-support';

describe('secretValues / redact', () => {
  it('redacts values of secret keys of at least 4 characters, also JSON-escaped', () => {
    const secrets = secretValues({
      env: { TOKEN: 'ab"cd', SHORT: 'abc', PLAIN: 'visible' },
      secretEnv: ['TOKEN', 'SHORT', 'MISSING'],
    });
    expect(secrets).toContain('ab"cd');
    expect(secrets).toContain('ab\\"cd');
    expect(secrets).not.toContain('abc');
    expect(redact('token=ab"cd json="ab\\"cd" abc', secrets)).toBe(`token=${SECRET_MASK} json="${SECRET_MASK}" abc`);
  });
});

describe('ServerLog', () => {
  it('writes trace entries with method, id, size, summary and redacted body', () => {
    const logs = new LogCollector();
    const log = new ServerLog(logs, 'srv', ['sekret-value']);
    const request = {
      jsonrpc: '2.0' as const,
      id: 3,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'sekret-value' } },
    };
    const raw = JSON.stringify(request);
    log.trace('out', request, Buffer.byteLength(raw), raw);
    const response = { jsonrpc: '2.0' as const, id: 3, result: { content: [] } };
    log.trace('in', response, 118, JSON.stringify(response));
    const error = { jsonrpc: '2.0' as const, id: 4, error: { code: -32601, message: 'Method not found' } };
    log.trace('in', error, 90, JSON.stringify(error));
    const [out, result, failed] = logs.for('srv', 'trace');
    expect(out).toMatchObject({ direction: 'out', method: 'tools/call', id: 3, size: Buffer.byteLength(raw) });
    expect(out?.text).toBe(`→ tools/call #3 (${formatSize(Buffer.byteLength(raw))})`);
    expect(out?.body).not.toContain('sekret-value');
    expect(out?.body).toContain(SECRET_MASK);
    expect(result).toMatchObject({
      direction: 'in',
      method: 'tools/call',
      id: 3,
      text: '← tools/call #3 result (118 B)',
    });
    expect(failed?.text).toBe('← response #4 error -32601: Method not found (90 B)');
  });

  it('names the method of an answer whose id is the request id as text, as it always did', () => {
    const logs = new LogCollector();
    const log = new ServerLog(logs, 'srv', []);
    const request = { jsonrpc: '2.0' as const, id: 5, method: 'ping' };
    log.trace('out', request, 30, JSON.stringify(request));
    const answer = { jsonrpc: '2.0' as const, id: '5', result: {} };
    log.trace('in', answer, 30, JSON.stringify(answer));
    expect(logs.texts('srv', 'trace')).toEqual(['→ ping #5 (30 B)', '← ping #5 result (30 B)']);
  });

  it('truncates very large bodies with a marker', () => {
    const logs = new LogCollector();
    const log = new ServerLog(logs, 'srv', []);
    const message = {
      jsonrpc: '2.0' as const,
      method: 'notifications/message',
      params: { data: 'x'.repeat(TRACE_BODY_LIMIT * 2) },
    };
    const raw = JSON.stringify(message);
    log.trace('in', message, raw.length, raw);
    const body = logs.entries[0]?.body ?? '';
    expect(body.length).toBeLessThan(TRACE_BODY_LIMIT + 100);
    expect(body).toMatch(/… \[truncated, 131\.\d KB in total\]$/);
  });

  it('turns notifications/message into entries with level, logger and text', () => {
    const logs = new LogCollector();
    const log = new ServerLog(logs, 'srv', ['hunter22']);
    log.notification({ level: 'warning', logger: 'db', data: 'password hunter22 rejected' });
    log.notification({ level: 'nonsense', data: { a: 1 } });
    expect(logs.entries[0]).toMatchObject({
      source: 'notification',
      level: 'warning',
      logger: 'db',
      text: `password ${SECRET_MASK} rejected`,
    });
    expect(logs.entries[1]).toMatchObject({ source: 'notification', text: '{"a":1}' });
    expect(logs.entries[1]?.level).toBeUndefined();
  });

  it('remembers the last stderr line to explain exits', () => {
    const log = new ServerLog(new LogCollector(), 'srv', []);
    log.stderr('starting');
    log.stderr('Error: boom');
    log.stderr('   ');
    expect(log.lastStderrLine()).toBe('Error: boom');
  });

  it('finds the last error line, past a banner written after it', () => {
    const log = new ServerLog(new LogCollector(), 'srv', []);
    log.stderr('Stripe MCP server running on stdio');
    expect(log.lastErrorLine()).toBeUndefined();
    log.stderr('getaddrinfo ENOTFOUND mcp.stripe.com');
    log.stderr('Every tool is registered');
    expect(log.lastStderrLine()).toBe('Every tool is registered');
    expect(log.lastErrorLine()).toBe('getaddrinfo ENOTFOUND mcp.stripe.com');
  });
});
