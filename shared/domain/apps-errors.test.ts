import { describe, expect, it } from 'vitest';
import { appsError } from './apps-errors';

describe("MCP Apps' failures: a code with its facts, and the English Berth always said", () => {
  it('names the server, its state and the tool an app cannot call', () => {
    expect(appsError('apps-errors.call-not-running', { server: 'basic', status: 'crashed', tool: 'get-time' })).toEqual(
      {
        text: "server 'basic' is not running (crashed): its app cannot call 'get-time'",
        hostMessage: {
          code: 'apps-errors.call-not-running',
          params: { server: 'basic', status: 'crashed', tool: 'get-time' },
        },
      },
    );
  });

  it('keeps sizes and link schemes as facts', () => {
    expect(appsError('apps-errors.result-too-large', { server: 's', tool: 't', size: '12.5', max: 8 }).text).toBe(
      "'t' of server 's' answered 12.5 MB; an app gets at most 8 MB",
    );
    expect(appsError('apps-errors.link-scheme', { scheme: 'file:' }).text).toBe(
      'an app may open http and https links only, not file:',
    );
  });
});
