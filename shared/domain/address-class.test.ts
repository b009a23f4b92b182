import { describe, expect, it } from 'vitest';
import { classifyAddress, classifyTarget, nonPublicTargetReason, parseIpv4, targetHost } from './address-class';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['127.0.0.1.', 'loopback'],
    ['localhost', 'loopback'],
    ['LOCALHOST.', 'loopback'],
    ['api.localhost', 'loopback'],
    ['*.localhost', 'loopback'],
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['[::ffff:0:127.0.0.1]', 'loopback'],
    ['[64:ff9b::127.0.0.1]', 'loopback'],
    ['2852039166', 'metadata'],
    ['169.254.169.254', 'metadata'],
    ['0xa9fea9fe', 'metadata'],
    ['0251.0376.0251.0376', 'metadata'],
    ['[::ffff:169.254.169.254]', 'metadata'],
    ['[::ffff:a9fe:a9fe]', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['metadata.google.internal.', 'metadata'],
    ['[fd00:ec2::254]', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['[fe80::1%eth0]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['[fc00::1]', 'private'],
    ['[fd12:3456::1]', 'private'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['printer.local', 'private'],
    ['db.internal', 'private'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['example.com', 'public'],
    ['example.com.', 'public'],
    ['8.8.8.8', 'public'],
    ['[2606:4700::1111]', 'public'],
    ['2606:4700::1111', 'public'],
    ['172.32.0.1', 'public'],
    ['registry.npmjs.org', 'public'],
    ['localhost.example.com', 'public'],
  ])('%s is %s', (host, expected) => {
    expect(classifyAddress(host)).toBe(expected);
  });
});

describe('parseIpv4', () => {
  it('reads the spellings a URL parser reads, and nothing else', () => {
    expect(parseIpv4('127.1')).toBe(0x7f000001);
    expect(parseIpv4('0x7f.0.0.1')).toBe(0x7f000001);
    expect(parseIpv4('1.2.3.4.5')).toBeUndefined();
    expect(parseIpv4('256.0.0.1')).toBeUndefined();
    expect(parseIpv4('08.0.0.1')).toBeUndefined();
    expect(parseIpv4('4294967296')).toBeUndefined();
  });
});

describe('targets', () => {
  it('takes the host of a URL, host:port or bracketed IPv6, as a client would', () => {
    expect(targetHost('http://2852039166/')).toBe('169.254.169.254');
    expect(targetHost('http://[::ffff:127.0.0.1]:8080/mcp')).toBe('[::ffff:7f00:1]');
    expect(targetHost('https://user@0x7f.1:3000/x')).toBe('127.0.0.1');
    expect(targetHost('127.1:8080')).toBe('127.1');
    expect(targetHost('[fe80::1]:80')).toBe('[fe80::1]');
    expect(targetHost('fe80::1')).toBe('fe80::1');
  });

  it('classes URLs in every spelling and says why in words', () => {
    for (const url of [
      'http://2852039166/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[fe80::1]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://localhost.:8080/',
    ]) {
      expect(classifyTarget(url), url).not.toBe('public');
    }
    expect(classifyTarget('https://api.example.com/mcp')).toBe('public');
    expect(nonPublicTargetReason('http://2852039166/')).toBe(
      "169.254.169.254 is a cloud's metadata service, which hands out the machine's credentials",
    );
    expect(nonPublicTargetReason('https://example.com')).toBeUndefined();
  });
});
