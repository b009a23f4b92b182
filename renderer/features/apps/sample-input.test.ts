import { describe, expect, it } from 'vitest';
import { parsePreviewInput, sampleInput } from './sample-input';
import { activateLocale } from '../../i18n/i18n';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', examples: ['Paris', 'Oslo'] },
    days: { type: 'integer', default: 3 },
    units: { type: 'string', enum: ['metric', 'imperial'] },
    verbose: { type: 'boolean' },
  },
  required: ['city', 'units'],
};

describe('sampleInput', () => {
  it('takes defaults, then examples, then a placeholder for required properties; leaves out the rest', () => {
    expect(sampleInput(schema)).toEqual({ city: 'Paris', days: 3, units: 'metric' });
    expect(sampleInput({ type: 'object' })).toEqual({});
  });
});

describe('parsePreviewInput', () => {
  it('accepts a JSON object and lists where it does not match the schema', () => {
    const good = parsePreviewInput('{"city": "Oslo", "units": "metric"}', schema);
    expect(good).toEqual({ ok: true, value: { city: 'Oslo', units: 'metric' }, issues: [] });
    const off = parsePreviewInput('{"units": "metric"}', schema);
    expect(off.ok && off.issues.join(' ')).toMatch(/city/);
  });

  it('refuses what is not JSON or not an object, with words', () => {
    expect(parsePreviewInput('{city:', schema)).toMatchObject({
      ok: false,
      message: expect.stringContaining('Not valid JSON'),
    });
    expect(parsePreviewInput('[1]', schema)).toMatchObject({
      ok: false,
      message: expect.stringContaining('JSON object'),
    });
  });

  it("says what is wrong with the typed arguments in English, braces and all, and in the person's language", async () => {
    expect(parsePreviewInput('[1]', schema)).toEqual({
      ok: false,
      message: 'The arguments must be a JSON object, like {"name": "value"}.',
    });
    await activateLocale('ja');
    expect(parsePreviewInput('[1]', schema)).toEqual({
      ok: false,
      message: '引数は {"name": "value"} のような JSON オブジェクトにしてください。',
    });
  });
});
