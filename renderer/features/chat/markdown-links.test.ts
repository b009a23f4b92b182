import { describe, expect, it } from 'vitest';
import { markdownLinkTarget } from './markdown-links';

describe('where a Markdown link may go', () => {
  it('opens web and mail addresses as they are', () => {
    expect(markdownLinkTarget('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(markdownLinkTarget('http://example.com')).toBe('http://example.com/');
    expect(markdownLinkTarget('mailto:someone@example.com')).toBe('mailto:someone@example.com');
  });

  it('never turns a relative link into one of Berth’s own URLs', () => {
    for (const href of ['docs/setup.md', '/api/token', '#install', '../x', '?token=1', '']) {
      expect(markdownLinkTarget(href)).toBeUndefined();
      expect(markdownLinkTarget(href, 'file:///home/me/notes/readme.md')).toBeUndefined();
      expect(markdownLinkTarget(href, 'memo://insights')).toBeUndefined();
    }
  });

  it('resolves a relative link against a document that has a web address', () => {
    expect(markdownLinkTarget('setup.md', 'https://example.com/docs/readme.md')).toBe(
      'https://example.com/docs/setup.md',
    );
    expect(markdownLinkTarget('#install', 'https://example.com/docs/readme.md')).toBe(
      'https://example.com/docs/readme.md#install',
    );
  });

  it('opens no other scheme', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,<b>x</b>',
      'vscode://x',
      'ui://app',
    ]) {
      expect(markdownLinkTarget(href)).toBeUndefined();
      expect(markdownLinkTarget(href, 'https://example.com/')).toBeUndefined();
    }
  });
});
