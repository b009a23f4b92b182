import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../shared/domain/sandbox';
import { offerFor, parseDenial, parseNetworkViolation } from './sandbox-denials';

const policy: SandboxPolicy = {
  allowWrite: ['/home/ann/Projects/site', '/home/ann/.config/berth/sandbox/fs/data'],
  denyWrite: ['/home/ann/.bashrc'],
  denyRead: ['/home/ann/.ssh', '/home/ann/.config/berth', '/home/ann/.npmrc'],
  allowRead: ['/home/ann/.config/berth/sandbox/fs/data'],
  allowedDomains: [],
};

describe('parseDenial', () => {
  it.each([
    [
      "Error: EROFS: read-only file system, open '/home/ann/Documents/x.txt'",
      { kind: 'write', target: '/home/ann/Documents/x.txt' },
    ],
    ['/usr/bin/bash: line 1: /home/ann/.bashrc: Read-only file system', { kind: 'write', target: '/home/ann/.bashrc' }],
    ["touch: cannot touch '/etc/passwd': Read-only file system", { kind: 'write', target: '/etc/passwd' }],
    ["OSError: [Errno 30] Read-only file system: '/srv/out.csv'", { kind: 'write', target: '/srv/out.csv' }],
    ['open /var/lib/x.db: read-only file system', { kind: 'write', target: '/var/lib/x.db' }],
    [
      "Error: ENOENT: no such file or directory, open '/home/ann/.ssh/id_rsa'",
      { kind: 'read', target: '/home/ann/.ssh/id_rsa' },
    ],
    ["PermissionError: [Errno 13] Permission denied: '/home/ann/.npmrc'", { kind: 'read', target: '/home/ann/.npmrc' }],
    [
      'cat: /home/ann/.config/berth/secrets.json: Permission denied',
      { kind: 'read', target: '/home/ann/.config/berth/secrets.json' },
    ],
  ])('%s', (line, expected) => {
    // Read from the server's own output: its claim.
    expect(parseDenial(line, policy)).toEqual({ ...expected, source: 'server' });
  });

  it('is not the sandbox when the path is one it does not restrict, or nothing was refused', () => {
    expect(
      parseDenial("Error: ENOENT: no such file or directory, open '/home/ann/Projects/site/missing.txt'", policy),
    ).toBeUndefined();
    expect(parseDenial("Error: EACCES: permission denied, open '/root/other-user-file'", policy)).toBeUndefined();
    expect(parseDenial('listening on /home/ann/Projects/site', policy)).toBeUndefined();
    // Its own data folder inside Berth's config folder is readable and writable.
    expect(
      parseDenial(
        "Error: ENOENT: no such file or directory, open '/home/ann/.config/berth/sandbox/fs/data/cache.json'",
        policy,
      ),
    ).toBeUndefined();
  });

  it('reads a write refused inside a root (a denied startup file) as the sandbox’s', () => {
    expect(
      parseDenial("EROFS: read-only file system, open '/home/ann/.bashrc'", { ...policy, allowWrite: ['/home/ann'] }),
    ).toEqual({ kind: 'write', target: '/home/ann/.bashrc', source: 'server' });
  });
});

describe('parseNetworkViolation', () => {
  it('takes the host from the proxy’s refusal, without the default ports', () => {
    expect(parseNetworkViolation('deny network-outbound api.example.com:443 (host is not on the allow list)')).toEqual({
      kind: 'network',
      target: 'api.example.com',
      source: 'proxy',
    });
    expect(parseNetworkViolation('deny network-outbound 127.0.0.1:8080 (host is not on the allow list)')).toEqual({
      kind: 'network',
      target: '127.0.0.1:8080',
      source: 'proxy',
    });
    expect(parseNetworkViolation('something else')).toBeUndefined();
  });
});

describe('offerFor', () => {
  const places = { home: '/home/ann', configDir: '/home/ann/.config/berth' };
  const write = (target: string) => ({ kind: 'write' as const, target, source: 'server' as const });
  const network = (target: string) => ({ kind: 'network' as const, target, source: 'proxy' as const });

  it('offers the folder written to (a file’s folder), or the domain', () => {
    expect(offerFor(write('/home/ann/Documents/x.txt'), places, () => false)).toEqual({
      fix: { folder: '/home/ann/Documents' },
    });
    expect(offerFor(write('/srv/out'), places, () => true)).toEqual({ fix: { folder: '/srv/out' } });
    expect(offerFor(network('api.example.com'), places, () => false)).toEqual({ fix: { domain: 'api.example.com' } });
  });

  it('offers nothing for secrets, startup files, reads, home or the whole disk, and says what the place holds', () => {
    expect(
      offerFor({ kind: 'read', target: '/home/ann/.ssh/id_rsa', source: 'server' }, places, () => false),
    ).toMatchObject({
      noFix: 'it holds credentials (~/.ssh)',
    });
    expect(offerFor(write('/home/ann/.bashrc'), places, () => false)).toMatchObject({
      noFix: 'it holds files that run code at login or in your shell (~/.bashrc)',
    });
    expect(offerFor(write('/home/ann/.ssh/authorized_keys'), places, () => false)).toMatchObject({
      noFix: 'it holds credentials (~/.ssh)',
    });
    expect(offerFor(write('/home/ann/notes.txt'), places, () => false)).toMatchObject({
      noFix: 'it is your home folder',
    });
    expect(offerFor(write('/x'), places, () => false)).toMatchObject({ noFix: 'it is the whole disk' });
  });

  it('gives why nothing is offered as a code with its facts, which the denial notice words', () => {
    expect(offerFor(write('/home/ann/.ssh/authorized_keys'), places, () => false).noFixMessage).toEqual({
      code: 'sandbox-errors.no-fix-protected',
      params: { kind: 'secrets', place: '~/.ssh' },
    });
    expect(offerFor(network('10.0.0.5:22'), places, () => false).noFixMessage).toEqual({
      code: 'sandbox-errors.no-fix-network',
      params: {},
    });
    const unreadable = offerFor({ kind: 'read', target: '/etc/shadow', source: 'server' }, places, () => false);
    expect(unreadable).toEqual({
      noFix: 'Berth keeps it unreadable to every server',
      noFixMessage: { code: 'sandbox-errors.no-fix-unreadable', params: {} },
    });
  });

  it("offers nothing for a forged denial naming Berth's own files or a folder holding home", () => {
    for (const target of [
      '/home/ann/.config/berth/sandbox.json',
      '/home/ann/.config/berth/config.json',
      '/home/ann/.config/berth/sandbox/other-1/data/x',
    ]) {
      const offer = offerFor(write(target), places, () => false);
      expect(offer.fix).toBeUndefined();
      expect(offer.noFix).toContain("Berth's own settings folder (~/.config/berth)");
    }
    expect(offerFor(write('/home/ann/.config/berth'), places, () => true).fix).toBeUndefined();
    expect(offerFor(write('/home'), places, () => true)).toMatchObject({
      noFix: 'it holds your home folder (/home/ann)',
    });
    expect(offerFor(write('/home/ann/.config/git/config'), places, () => false).fix).toBeUndefined();
  });

  it.each([
    '127.0.0.1:8080',
    'localhost:3000',
    '127.1',
    '2130706433',
    '0x7f000001',
    '[::1]:8080',
    '[::ffff:127.0.0.1]',
    '[fe80::1]',
    '10.0.0.5:22',
    '192.168.1.1',
    '169.254.169.254',
    '2852039166',
    'metadata.google.internal',
  ])('offers no one-click allow for %s (this computer, a private network or a metadata service)', (target) => {
    const offer = offerFor(network(target), places, () => false);
    expect(offer.fix).toBeUndefined();
    expect(offer.noFix).toMatch(/this computer, a private network or a cloud metadata service/);
  });
});
