import { describe, expect, it } from 'vitest';
import { openingOrder } from './host-modules';
import { HOST_MODULES } from './modules';

describe('HOST_MODULES', () => {
  it('reads in the order the host opens: every phase together, in phase order', () => {
    expect(openingOrder(HOST_MODULES).map((module) => module.name)).toEqual(HOST_MODULES.map((module) => module.name));
  });

  it('names each capability once', () => {
    const names = HOST_MODULES.map((module) => module.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
