import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleField } from '../../shared/contract/bundles';
import { checkValues } from './bundle-values';

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

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-values-'));
  await writeFile(join(dir, 'file.txt'), 'x');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('checkValues', () => {
  it('uses defaults, turns booleans and numbers into text, and leaves unset optional fields out', async () => {
    const { values, problems } = await checkValues(
      [
        field('n', { type: 'number', default: 2 }),
        field('b', { type: 'boolean' }),
        field('s'),
        field('dirs', { type: 'directory', multiple: true }),
      ],
      { b: false, dirs: [dir] },
    );
    expect(problems).toEqual([]);
    expect(Object.fromEntries(values)).toEqual({ n: '2', b: 'false', dirs: [dir] });
  });

  it('says what is wrong with each setting', async () => {
    const { problems } = await checkValues(
      [
        field('req', { required: true, title: 'Token' }),
        field('n', { type: 'number', min: 1, max: 3, title: 'Count' }),
        field('d', { type: 'directory', title: 'Folder' }),
        field('f', { type: 'file', title: 'File' }),
        field('one', { title: 'One' }),
      ],
      { n: 7, d: join(dir, 'file.txt'), f: 'relative.txt', one: ['a', 'b'], extra: 'x' },
    );
    // Each with its code and facts beside the English: the bundle dialog words them in the person's language.
    const file = join(dir, 'file.txt');
    expect(problems).toEqual([
      {
        field: 'values.extra',
        message: 'The bundle has no setting "extra"',
        hostMessage: { code: 'bundle-errors.no-setting', params: { key: 'extra' } },
      },
      {
        field: 'values.req',
        message: 'Token is required',
        hostMessage: { code: 'bundle-errors.setting-required', params: { title: 'Token' } },
      },
      {
        field: 'values.n',
        message: 'Count: enter at most 3',
        hostMessage: { code: 'bundle-errors.setting-max', params: { title: 'Count', max: 3 } },
      },
      {
        field: 'values.d',
        message: `Folder: ${file} is not a folder`,
        hostMessage: {
          code: 'bundle-errors.setting-path-wrong-kind',
          params: { title: 'Folder', kind: 'folder', path: file },
        },
      },
      {
        field: 'values.f',
        message: 'File: enter the full path of a file (got "relative.txt")',
        hostMessage: {
          code: 'bundle-errors.setting-path-relative',
          params: { title: 'File', kind: 'file', path: 'relative.txt' },
        },
      },
      {
        field: 'values.one',
        message: 'One takes one value',
        hostMessage: { code: 'bundle-errors.setting-one-value', params: { title: 'One' } },
      },
    ]);
  });
});
