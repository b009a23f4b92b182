import { describe, expect, it } from 'vitest';
import type { BundleField } from '../../../shared/contract/bundles';
import { activateLocale } from '../../i18n/i18n';
import { wordsText } from '../../i18n/words';
import { bundleFileProblem, initialDrafts, toBase64, valuesFromDrafts } from './bundle-model';

const field = (key: string, extra: Partial<BundleField> = {}): BundleField => ({
  key,
  type: 'string',
  title: key,
  description: '',
  required: false,
  sensitive: false,
  multiple: false,
  ...extra,
});

describe('bundle model', () => {
  it('offers only .mcpb files within the size limit', () => {
    expect(bundleFileProblem({ name: 'a.mcpb', size: 10 })).toBeUndefined();
    expect(wordsText(bundleFileProblem({ name: 'a.zip', size: 10 })!)).toBe(
      '“a.zip” is not an MCP Bundle: choose a .mcpb file',
    );
    expect(wordsText(bundleFileProblem({ name: 'a.mcpb', size: 300 * 1024 * 1024 })!)).toMatch(/larger than 256 MiB/);
  });

  it("says why a file is not opened in the person's language", async () => {
    await activateLocale('ja');
    expect(wordsText(bundleFileProblem({ name: 'a.zip', size: 10 })!)).toBe(
      '「a.zip」は MCP Bundle ではありません。.mcpb ファイルを選んでください',
    );
  });

  it('encodes large byte arrays as base64', () => {
    const bytes = new Uint8Array(100_000).map((_, index) => index % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('starts from the defaults (never a sensitive one) and sends lists, numbers and switches typed', () => {
    const fields = [
      field('dirs', { multiple: true, type: 'directory', default: ['/a', '/b'] }),
      field('n', { type: 'number', default: 3 }),
      field('on', { type: 'boolean', default: true }),
      field('key', { sensitive: true, default: 'x' }),
    ];
    const drafts = initialDrafts(fields);
    expect(drafts).toEqual({ dirs: '/a\n/b', n: '3', on: true, key: '' });
    expect(valuesFromDrafts(fields, { ...drafts, key: ' secret ' })).toEqual({
      dirs: ['/a', '/b'],
      n: 3,
      on: true,
      key: ' secret ',
    });
    expect(valuesFromDrafts(fields, { ...drafts, dirs: '\n', n: '' })).toEqual({ on: true });
  });
});

describe('fieldHint', () => {
  it('ends the description as a sentence and says where a sensitive value goes', async () => {
    const { fieldHint } = await import('./bundle-model');
    expect(fieldHint(field('k', { description: 'The token', sensitive: true }))).toBe(
      'The token. Kept in Berth’s secret store, never in the config file or on a command line.',
    );
    expect(fieldHint(field('n', { type: 'number', min: 1, max: 5, description: 'How many?' }))).toBe(
      'How many? From 1 to 5.',
    );
    expect(fieldHint(field('x'))).toBeUndefined();
  });
});
