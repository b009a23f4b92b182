import { describe, expect, it } from 'vitest';
import { bridgeError } from './bridge-errors';

describe("the bridge's refusals: a code with its facts", () => {
  it('keeps the English the router always wrote for its own refusals', () => {
    expect(bridgeError('bridge-errors.unknown-method', { method: '"servers.explode"' })).toEqual({
      text: 'Unknown method "servers.explode"',
      hostMessage: { code: 'bridge-errors.unknown-method', params: { method: '"servers.explode"' } },
    });
    expect(bridgeError('bridge-errors.method-not-string', { type: 'array' }).text).toBe(
      'Unknown method (an array; the method name must be a string)',
    );
    expect(bridgeError('bridge-errors.method-not-string', { type: 'number' }).text).toBe(
      'Unknown method (a number; the method name must be a string)',
    );
    expect(bridgeError('bridge-errors.shutting-down', {})).toEqual({
      text: 'Berth is shutting down',
      hostMessage: { code: 'bridge-errors.shutting-down', params: {} },
    });
  });

  it('words a refused field for the person: a named field, a key in words, the input as a whole', () => {
    expect(bridgeError('bridge-errors.too-long', { field: 'text', max: 100_000 }).text).toBe(
      'The message is too long (at most 100,000 characters).',
    );
    expect(bridgeError('bridge-errors.at-least', { field: 'timeoutMs', min: 1000 }).text).toBe(
      'The timeout ms must be at least 1,000.',
    );
    expect(bridgeError('bridge-errors.not-valid', { field: '' }).text).toBe('What was entered is not valid.');
    expect(bridgeError('bridge-errors.schema-words', { field: 'text', detail: 'Write a message first.' })).toEqual({
      text: 'Write a message first.',
      hostMessage: {
        code: 'bridge-errors.schema-words',
        params: { field: 'text', detail: 'Write a message first.' },
      },
    });
  });
});
