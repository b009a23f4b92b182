import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message';

describe('errorMessage', () => {
  it("gives an Error's message, or its name when the message is empty", () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new TypeError(''))).toBe('TypeError');
  });

  it('gives a thrown string as is, and other primitives as String() does', () => {
    expect(errorMessage('no such file')).toBe('no such file');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(null)).toBe('null');
  });

  it('shows a plain object or array as JSON', () => {
    expect(errorMessage({ code: 'EBUSY', retry: false })).toBe('{"code":"EBUSY","retry":false}');
    expect(errorMessage(['a', 1])).toBe('["a",1]');
    expect(errorMessage(Object.assign(Object.create(null) as object, { a: 1 }))).toBe('{"a":1}');
  });

  it('uses String() for an object JSON cannot show, and for class instances', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(errorMessage(circular)).toBe('[object Object]');
    expect(errorMessage(new URL('https://example.com/x'))).toBe('https://example.com/x');
  });

  it('never throws, even for a value whose toString throws', () => {
    const hostile = {
      toString(): string {
        throw new Error('no');
      },
    };
    Object.setPrototypeOf(hostile, { toString: hostile.toString });
    expect(errorMessage(hostile)).toBe('an error that cannot be described');
  });
});
