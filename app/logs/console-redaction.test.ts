import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installConsoleRedaction } from './console-redaction';

const printed: string[] = [];
let saved: { warn: typeof console.warn; error: typeof console.error };

beforeEach(() => {
  saved = { warn: console.warn, error: console.error };
  console.warn = (...args: unknown[]) => void printed.push(`warn ${args.map(String).join(' ')}`);
  console.error = (...args: unknown[]) => void printed.push(`error ${args.map(String).join(' ')}`);
});
afterEach(() => {
  console.warn = saved.warn;
  console.error = saved.error;
  printed.length = 0;
});

describe('installConsoleRedaction', () => {
  it('masks secrets in console.warn and console.error, and copies the MCP SDK’s lines to the host log', () => {
    const sdkLines: string[] = [];
    const before = console.warn;
    const uninstall = installConsoleRedaction({
      redact: (text) => text.replaceAll('tok-123456', '***'),
      sdkLine: (level, text) => sdkLines.push(`${level} ${text}`),
    });
    console.warn(
      `[mcp-sdk] Could not refresh OAuth tokens. Cause: ${JSON.stringify('HTTP 500: Raw body: tok-123456')}`,
    );
    console.error('[berth] failed:', new Error('token tok-123456 refused'));
    console.warn('nothing secret', { a: 1 });
    expect(printed[0]).toBe('warn [mcp-sdk] Could not refresh OAuth tokens. Cause: "HTTP 500: Raw body: ***"');
    expect(printed[1]).toMatch(/^error \[berth\] failed: Error: token \*\*\* refused/);
    // Unchanged output is passed on with its own arguments.
    expect(printed[2]).toBe('warn nothing secret [object Object]');
    expect(sdkLines).toEqual(['warning [mcp-sdk] Could not refresh OAuth tokens. Cause: "HTTP 500: Raw body: ***"']);
    uninstall();
    expect(console.warn).toBe(before);
  });

  it('serves several hosts at once and restores the console when the last one stops', () => {
    const before = { warn: console.warn, error: console.error };
    const first = installConsoleRedaction({
      redact: (text) => text.replaceAll('alpha-secret', '***'),
      sdkLine: () => undefined,
    });
    const second = installConsoleRedaction({
      redact: (text) => text.replaceAll('beta-secret', '***'),
      sdkLine: () => undefined,
    });
    first();
    console.warn('alpha-secret beta-secret');
    expect(printed).toEqual(['warn alpha-secret ***']);
    second();
    expect(console.warn).toBe(before.warn);
    expect(console.error).toBe(before.error);
  });
});
