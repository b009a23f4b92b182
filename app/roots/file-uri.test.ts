import { describe, expect, it } from 'vitest';
import { fileUriToPath, normalizeRootPath, pathToFileUri } from './file-uri';

describe('pathToFileUri on POSIX', () => {
  const toUri = (path: string) => pathToFileUri(path, 'linux');

  it('builds file:/// URIs for plain paths and the filesystem root', () => {
    expect(toUri('/home/me/project')).toBe('file:///home/me/project');
    expect(toUri('/')).toBe('file:///');
  });

  it('percent-encodes spaces, #, ?, % and unicode as UTF-8', () => {
    expect(toUri('/home/me/My Documents')).toBe('file:///home/me/My%20Documents');
    expect(toUri('/tmp/a#b/c?d/50%')).toBe('file:///tmp/a%23b/c%3Fd/50%25');
    expect(toUri('/tmp/café')).toBe('file:///tmp/caf%C3%A9');
    expect(toUri('/tmp/日本')).toBe('file:///tmp/%E6%97%A5%E6%9C%AC');
  });

  it('drops trailing and repeated slashes', () => {
    expect(toUri('/home/me/project/')).toBe('file:///home/me/project');
    expect(toUri('//home///me//')).toBe('file:///home/me');
    expect(normalizeRootPath('/home//me/', 'linux')).toBe('/home/me');
  });

  it('refuses traversal instead of resolving it', () => {
    expect(() => toUri('/home/me/../other')).toThrow(/'\.\.' segment/);
    expect(() => toUri('/home/./me')).toThrow(/'\.' segment/);
    expect(() => toUri('/..')).toThrow(/'\.\.' segment/);
  });

  it('refuses relative and empty paths', () => {
    expect(() => toUri('project')).toThrow(/relative path/);
    expect(() => toUri('./project')).toThrow(/relative path/);
    expect(() => toUri('~/project')).toThrow(/relative path/);
    expect(() => toUri('  ')).toThrow(/empty/);
  });

  it('refuses Windows drive letters and UNC paths with a clear message', () => {
    expect(() => toUri('C:\\Users\\me')).toThrow(/Windows path.*POSIX/);
    expect(() => toUri('c:/Users/me')).toThrow(/Windows path/);
    expect(() => toUri('D:')).toThrow(/Windows path/);
    expect(() => toUri('\\\\server\\share')).toThrow(/Windows path/);
  });

  it('refuses NUL and lone surrogates', () => {
    expect(() => toUri('/tmp/a\u0000b')).toThrow(/NUL/);
    expect(() => toUri('/tmp/\ud800')).toThrow(/not valid Unicode/);
  });
});

describe('pathToFileUri on Windows', () => {
  const toUri = (path: string) => pathToFileUri(path, 'win32');

  it('builds file:///C:/ URIs from drive paths with either separator', () => {
    expect(toUri('C:\\Users\\x')).toBe('file:///C:/Users/x');
    expect(toUri('c:/Users/x/')).toBe('file:///C:/Users/x');
    expect(toUri('D:\\')).toBe('file:///D:/');
    expect(toUri('C:\\My Files\\日本')).toBe('file:///C:/My%20Files/%E6%97%A5%E6%9C%AC');
    expect(normalizeRootPath('c:/Users//x\\', 'win32')).toBe('C:\\Users\\x');
  });

  it('puts the UNC server in the authority', () => {
    expect(toUri('\\\\server\\share')).toBe('file://server/share');
    expect(toUri('\\\\Server\\share\\team docs\\')).toBe('file://server/share/team%20docs');
    expect(normalizeRootPath('\\\\Server\\share', 'win32')).toBe('\\\\server\\share');
  });

  it('refuses relative, drive-relative, driveless, device and traversing paths', () => {
    expect(() => toUri('Users\\x')).toThrow(/relative path/);
    expect(() => toUri('C:Users')).toThrow(/current folder of drive C:/);
    expect(() => toUri('\\Users\\x')).toThrow(/no drive letter/);
    expect(() => toUri('\\\\?\\C:\\x')).toThrow(/device path/);
    expect(() => toUri('\\\\server')).toThrow(/incomplete network path/);
    expect(() => toUri('C:\\a\\..\\b')).toThrow(/'\.\.' segment/);
    expect(() => toUri('\\\\server\\share\\..\\other')).toThrow(/'\.\.' segment/);
    expect(() => toUri('C:\\a\\b:stream')).toThrow(/does not allow/);
    expect(() => toUri('\\\\bad_host!\\share')).toThrow(/not a valid server name/);
  });
});

describe('fileUriToPath', () => {
  it('decodes POSIX URIs, including the file:/ and localhost forms', () => {
    expect(fileUriToPath('file:///home/me/My%20Documents', 'linux')).toBe('/home/me/My Documents');
    expect(fileUriToPath('file://localhost/tmp/caf%C3%A9', 'linux')).toBe('/tmp/café');
    expect(fileUriToPath('file:/tmp/x/', 'linux')).toBe('/tmp/x');
    expect(fileUriToPath('FILE:///', 'linux')).toBe('/');
  });

  it('decodes Windows drive and UNC URIs', () => {
    expect(fileUriToPath('file:///C:/Users/x', 'win32')).toBe('C:\\Users\\x');
    expect(fileUriToPath('file:///c:/', 'win32')).toBe('C:\\');
    expect(fileUriToPath('file://server/share/a%20b', 'win32')).toBe('\\\\server\\share\\a b');
  });

  it('refuses other schemes, queries and fragments', () => {
    expect(() => fileUriToPath('https://example.com/x', 'linux')).toThrow(/not a file: URI/);
    expect(() => fileUriToPath('/tmp/x', 'linux')).toThrow(/not a file: URI/);
    expect(() => fileUriToPath('file:///tmp/x?y=1', 'linux')).toThrow(/query/);
    expect(() => fileUriToPath('file:///tmp/x#top', 'linux')).toThrow(/fragment/);
  });

  it('refuses encoded separators, NUL, traversal and bad encodings', () => {
    expect(() => fileUriToPath('file:///tmp/a%2Fb', 'linux')).toThrow(/encoded path separator/);
    expect(() => fileUriToPath('file:///C:/a%5Cb', 'win32')).toThrow(/encoded path separator/);
    expect(() => fileUriToPath('file:///tmp/a%00b', 'linux')).toThrow(/NUL/);
    expect(() => fileUriToPath('file:///tmp/../etc', 'linux')).toThrow(/'\.\.'/);
    expect(() => fileUriToPath('file:///tmp/%2E%2E/etc', 'linux')).toThrow(/'\.\.'/);
    expect(() => fileUriToPath('file:///tmp/%E6%97', 'linux')).toThrow(/malformed percent-encoding/);
    expect(() => fileUriToPath('file:///tmp/a b', 'linux')).toThrow(/must be percent-encoded/);
  });

  it('refuses URIs of the other flavour or a remote host', () => {
    expect(() => fileUriToPath('file:///C:/Users/x', 'linux')).toThrow(/Windows drive URI/);
    expect(() => fileUriToPath('file://server/share', 'linux')).toThrow(/remote host 'server'/);
    expect(() => fileUriToPath('file:///home/me', 'win32')).toThrow(/no drive letter/);
  });

  it('round-trips every path it can encode', () => {
    const posix = ['/', '/home/me/My Documents', '/tmp/a#b/c?d/50%', '/tmp/café/日本', "/tmp/it's (1) [x] +&=@:"];
    for (const path of posix) expect(fileUriToPath(pathToFileUri(path, 'linux'), 'linux')).toBe(path);
    const windows = ['C:\\', 'C:\\My Files\\日本', '\\\\server\\share\\a#b%c', 'E:\\50% off'];
    for (const path of windows) expect(fileUriToPath(pathToFileUri(path, 'win32'), 'win32')).toBe(path);
  });
});
