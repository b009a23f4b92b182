import { describe, expect, it } from 'vitest';
import {
  hasPort,
  isLocalOrPrivateTarget,
  isMetadataOrLinkLocalTarget,
  isThisComputerTarget,
  targetPort,
} from './sandbox-local-target';

describe('isLocalOrPrivateTarget', () => {
  it.each([
    'localhost',
    'LOCALHOST:8080',
    'api.localhost',
    '*.localhost',
    'localhost.',
    '127.0.0.1',
    '127.0.0.1:3000',
    '127.1',
    '2130706433',
    '0x7f000001',
    '0x7f.1',
    '0177.0.0.1',
    '0.0.0.0',
    '0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255:22',
    '192.168.1.1',
    '169.254.169.254',
    '2852039166',
    '0xa9fea9fe',
    '100.64.0.1',
    '::1',
    '[::1]',
    '[::1]:8080',
    '[::]',
    '[fe80::1]',
    '[fe80::1%eth0]:80',
    'fd00::1',
    '[fc00::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:169.254.169.254]:80',
    '[64:ff9b::10.0.0.1]',
    'metadata.google.internal',
    'metadata.google.internal.:80',
    'metadata',
  ])('%s is local, private or metadata', (target) => {
    expect(isLocalOrPrivateTarget(target)).toBe(true);
  });

  it.each([
    'example.com',
    'api.github.com:443',
    '*.npmjs.org',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '[2606:4700::1111]',
    '[::ffff:8.8.8.8]',
    '10.example.com',
    'localhost.example.com',
    '1.1.1.1:53',
  ])('%s is a public target', (target) => {
    expect(isLocalOrPrivateTarget(target)).toBe(false);
  });
});

describe('isMetadataOrLinkLocalTarget', () => {
  it('names cloud metadata services and link-local addresses in every spelling, nothing else', () => {
    for (const target of [
      '169.254.169.254',
      '169.254.170.2:80',
      '2852039166',
      '0xa9fea9fe',
      '[::ffff:169.254.169.254]',
      'metadata.google.internal',
      'metadata.goog:80',
      '[fe80::1]',
      '[fd00:ec2::254]',
    ]) {
      expect(isMetadataOrLinkLocalTarget(target), target).toBe(true);
    }
    for (const target of ['127.0.0.1:80', 'localhost', '10.0.0.1', 'example.com', '[fd00::1]'])
      expect(isMetadataOrLinkLocalTarget(target), target).toBe(false);
  });
});

describe('hasPort', () => {
  it('tells host:port from a bare host', () => {
    expect(hasPort('localhost:5432')).toBe(true);
    expect(hasPort('[::1]:8080')).toBe(true);
    expect(hasPort('localhost')).toBe(false);
    expect(hasPort('::1')).toBe(false);
    expect([
      targetPort('localhost:5432'),
      targetPort('[::1]:8080'),
      targetPort('localhost'),
      targetPort('::1'),
    ]).toEqual([5432, 8080, undefined, undefined]);
  });
});

describe('isThisComputerTarget', () => {
  it('names this computer in every spelling, not its network', () => {
    for (const target of [
      'localhost:80',
      '127.1:80',
      '2130706433:80',
      '0x7f000001',
      '[::1]:80',
      '[::ffff:127.0.0.1]:80',
      '0.0.0.0:80',
      'api.localhost:80',
    ])
      expect(isThisComputerTarget(target), target).toBe(true);
    for (const target of ['10.0.0.1:80', '192.168.1.1', 'example.com:80', '169.254.169.254'])
      expect(isThisComputerTarget(target), target).toBe(false);
  });
});
