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

  it("words a setting's problem with the bundle's own title as a fact", () => {
    expect(
      bundleError('bundle-errors.setting-path-missing', { title: 'Folder', kind: 'folder', path: '/gone' }),
    ).toEqual({
      text: 'Folder: there is no folder at /gone',
      hostMessage: {
        code: 'bundle-errors.setting-path-missing',
        params: { title: 'Folder', kind: 'folder', path: '/gone' },
      },
    });
    expect(bundleError('bundle-errors.secret-exposed', { title: 'Token', where: 'command' }).text).toBe(
      'The bundle puts Token (a sensitive setting) in the command, where other programs on this computer can read it: Berth does not run it that way',
    );
  });

  it('names the risks left unconfirmed and what to do again', () => {
    expect(bundleError('bundle-errors.unconfirmed', { names: 'LD_PRELOAD', count: 1, action: 'install' }).text).toBe(
      'Confirm first what this server asks for that runs code or opens its walls (LD_PRELOAD): tick "I understand" for it in the review, then install again',
    );
  });
});
