import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../shared/result';
import { Redaction } from './redaction';

const KEY = 'sk-ant-very-secret-key-1234';
let redaction: Redaction | undefined;

afterEach(() => redaction?.close());

describe('Redaction of a failure', () => {
  it('masks a secret in the coded twin of a message as in the message itself', () => {
    redaction = new Redaction({ env: { ANTHROPIC_API_KEY: KEY }, sdkLine: () => undefined });
    const detail = `HTTP 401 for key ${KEY}`;
    const answer = redaction.result(
      'servers.start',
      fail('SERVER_ERROR', `tools/call on server 'a' failed: ${detail}`, undefined, {
        code: 'server-errors.failed',
        params: { name: 'a', subject: 'tools/call', detail },
      }),
    );
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(answer).toMatchObject({
      ok: false,
      hostMessage: { code: 'server-errors.failed', params: { name: 'a', subject: 'tools/call' } },
    });
    expect(answer.ok ? undefined : answer.hostMessage?.params?.detail).toMatch(/^HTTP 401 for key \S+$/);
  });
});
