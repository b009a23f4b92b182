import { describe, expect, it } from 'vitest';
import { bundleError } from './bundle-errors';

describe("a bundle's refusals: a code with its facts, and the English Berth always said", () => {
  it("keeps an entry's name and the archive's sizes as facts", () => {
    expect(bundleError('bundle-errors.past-header', { name: 'big.bin', size: 10 })).toEqual({
      text: '"big.bin" unpacks to more than its header says (10 bytes): the archive is refused',
      hostMessage: { code: 'bundle-errors.past-header', params: { name: 'big.bin', size: 10 } },
    });
    expect(bundleError('bundle-errors.file-too-large', { name: 'manifest.json', max: 1048576 }).text).toBe(
      'manifest.json is larger than 1048576 bytes',
    );
  });

  it('words what is wrong with the manifest and the install', () => {
    expect(
      bundleError('bundle-errors.manifest-unknown-version', { declared: '"9.9"', supported: '0.2, 0.3' }).text,
    ).toBe('manifest.json declares manifest_version "9.9", which Berth does not know (it reads 0.2, 0.3)');
    expect(
      bundleError('bundle-errors.already-installed', { bundle: 'berth-greeter', version: '1.0.0', server: 'greeter' }),
    ).toEqual({
      text: 'berth-greeter 1.0.0 is already installed as "greeter": uninstall it first, or install a different version',
      hostMessage: {
        code: 'bundle-errors.already-installed',
        params: { bundle: 'berth-greeter', version: '1.0.0', server: 'greeter' },
      },
    });
  });
});
