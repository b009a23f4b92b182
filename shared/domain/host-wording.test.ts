import { describe, expect, it } from 'vitest';
import { HostMessageSchema } from './host-message';
import { codedFamily, familyWords, hostWords, MAX_PARAM_CHARS } from './host-wording';
import { serverStateReason } from './server-state-reasons';
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

describe('hostWords, the one maker behind familyWords and codedFamily', () => {
  type Sample = { 'sample.said': { what: string }; 'sample.bare': Record<string, never> };
  const english = { 'sample.said': ({ what }: { what: string }) => `said ${what}`, 'sample.bare': () => 'bare' };

  it('gives both shapes the same English and code from the same facts', () => {
    const made = hostWords<Sample>(english)('sample.said', { what: 'hi' });
    expect(made).toEqual({ text: 'said hi', hostMessage: { code: 'sample.said', params: { what: 'hi' } } });
    expect(familyWords<Sample>(english)('sample.said', { what: 'hi' })).toEqual({
      text: made.text,
      message: made.hostMessage,
    });
    expect(codedFamily<Sample>(english)('sample.said', { what: 'hi' })).toEqual(made);
  });

  it('a code without facts: the event shape leaves out params, the failure shape keeps an empty object', () => {
    expect(familyWords<Sample>(english)('sample.bare', {}).message).toEqual({ code: 'sample.bare' });
    expect(codedFamily<Sample>(english)('sample.bare', {}).hostMessage).toEqual({ code: 'sample.bare', params: {} });
  });

  it("cuts a too-long fact in a failure family's code too, its English whole", () => {
    const stderr = 'y'.repeat(20_000);
    const { text, hostMessage } = serverStateReason('server-state.closed-stderr', { stderr });
    expect(text).toContain(stderr);
    expect(HostMessageSchema.safeParse(hostMessage).success).toBe(true);
    expect(String(hostMessage.params.stderr)).toHaveLength(MAX_PARAM_CHARS);
  });
});
