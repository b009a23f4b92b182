import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../shared/domain/sandbox';
import { fixFor, parseDenial, parseNetworkViolation } from './sandbox-denials';

const policy: SandboxPolicy = {
  allowWrite: ['/home/ann/Projects/site', '/home/ann/.config/berth/sandbox/fs/data'],
  denyWrite: ['/home/ann/.bashrc'],
  denyRead: ['/home/ann/.ssh', '/home/ann/.config/berth', '/home/ann/.npmrc'],
  allowRead: ['/home/ann/.config/berth/sandbox/fs/data'],
  allowedDomains: [],
};

describe('parseDenial', () => {
  it.each([
    ["Error: EROFS: read-only file system, open '/home/ann/Documents/x.txt'", { kind: 'write', target: '/home/ann/Documents/x.txt' }],
    ['/usr/bin/bash: line 1: /home/ann/.bashrc: Read-only file system', { kind: 'write', target: '/home/ann/.bashrc' }],
    ["touch: cannot touch '/etc/passwd': Read-only file system", { kind: 'write', target: '/etc/passwd' }],
    ["OSError: [Errno 30] Read-only file system: '/srv/out.csv'", { kind: 'write', target: '/srv/out.csv' }],
    ['open /var/lib/x.db: read-only file system', { kind: 'write', target: '/var/lib/x.db' }],
    ["Error: ENOENT: no such file or directory, open '/home/ann/.ssh/id_rsa'", { kind: 'read', target: '/home/ann/.ssh/id_rsa' }],
    ["PermissionError: [Errno 13] Permission denied: '/home/ann/.npmrc'", { kind: 'read', target: '/home/ann/.npmrc' }],
    ["cat: /home/ann/.config/berth/secrets.json: Permission denied", { kind: 'read', target: '/home/ann/.config/berth/secrets.json' }],
  ])('%s', (line, expected) => {
    expect(parseDenial(line, policy)).toEqual(expected);
  });

  it('is not the sandbox when the path is one it does not restrict, or nothing was refused', () => {
    expect(parseDenial("Error: ENOENT: no such file or directory, open '/home/ann/Projects/site/missing.txt'", policy)).toBeUndefined();
    expect(parseDenial("Error: EACCES: permission denied, open '/root/other-user-file'", policy)).toBeUndefined();
    expect(parseDenial('listening on /home/ann/Projects/site', policy)).toBeUndefined();
    // Its own data folder inside Berth's config folder is readable and writable.
    expect(parseDenial("Error: ENOENT: no such file or directory, open '/home/ann/.config/berth/sandbox/fs/data/cache.json'", policy)).toBeUndefined();
  });

  it('reads a write refused inside a root (a denied startup file) as the sandbox’s', () => {
    expect(parseDenial("EROFS: read-only file system, open '/home/ann/.bashrc'", { ...policy, allowWrite: ['/home/ann'] })).toEqual({ kind: 'write', target: '/home/ann/.bashrc' });
  });
});

describe('parseNetworkViolation', () => {
  it('takes the host from the proxy’s refusal, without the default ports', () => {
    expect(parseNetworkViolation('deny network-outbound api.example.com:443 (host is not on the allow list)')).toEqual({ kind: 'network', target: 'api.example.com' });
    expect(parseNetworkViolation('deny network-outbound 127.0.0.1:8080 (host is not on the allow list)')).toEqual({ kind: 'network', target: '127.0.0.1:8080' });
    expect(parseNetworkViolation('something else')).toBeUndefined();
  });
});

describe('fixFor', () => {
  const home = '/home/ann';
  it('offers the folder written to (a file’s folder), or the domain', () => {
    expect(fixFor({ kind: 'write', target: '/home/ann/Documents/x.txt' }, home, () => false)).toEqual({ folder: '/home/ann/Documents' });
    expect(fixFor({ kind: 'write', target: '/srv/out' }, home, () => true)).toEqual({ folder: '/srv/out' });
    expect(fixFor({ kind: 'network', target: 'api.example.com' }, home, () => false)).toEqual({ domain: 'api.example.com' });
  });

  it('offers nothing for secrets, startup files, reads, home or the whole disk', () => {
    expect(fixFor({ kind: 'read', target: '/home/ann/.ssh/id_rsa' }, home, () => false)).toBeUndefined();
    expect(fixFor({ kind: 'write', target: '/home/ann/.bashrc' }, home, () => false)).toBeUndefined();
    expect(fixFor({ kind: 'write', target: '/home/ann/.ssh/authorized_keys' }, home, () => false)).toBeUndefined();
    expect(fixFor({ kind: 'write', target: '/home/ann/notes.txt' }, home, () => false)).toBeUndefined();
    expect(fixFor({ kind: 'write', target: '/x' }, home, () => false)).toBeUndefined();
  });
});
