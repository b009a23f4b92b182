import { describe, expect, it } from 'vitest';
import { HostMessageSchema } from './host-message';
import { MAX_PARAM_CHARS } from './host-wording';
import { withdrawal } from './withdrawal';

describe('familyWords', () => {
  it('cuts a fact too long for a host message, so a saved conversation holding it still loads; the English keeps it whole', () => {
    const detail = `Error: ${'x'.repeat(20_000)}`;
    const { text, message } = withdrawal('withdrawal.call-failed', { detail });
    expect(text).toBe(`the tool call that asked this ended with an error: ${detail}`);
    expect(HostMessageSchema.safeParse(message).success).toBe(true);
    expect(String(message.params?.detail)).toHaveLength(MAX_PARAM_CHARS);
    expect(String(message.params?.detail).endsWith('…')).toBe(true);
  });

  it('leaves facts of a usual length as they are, and sends no params for a code without any', () => {
    expect(withdrawal('withdrawal.server-removed', { server: 'everything' }).message).toEqual({
      code: 'withdrawal.server-removed',
      params: { server: 'everything' },
    });
    expect(withdrawal('withdrawal.berth-quit', {}).message).toEqual({ code: 'withdrawal.berth-quit' });
  });
});
