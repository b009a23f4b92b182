import { describe, expect, it } from 'vitest';
import {
  downloadName,
  expandTemplate,
  languageForMime,
  prettyJson,
  templateVariables,
  toAttachment,
} from './resource-model';

describe('resource templates', () => {
  it('finds every variable once, with its operator', () => {
    expect(templateVariables('demo://resource/dynamic/text/{resourceId}')).toEqual([
      { name: 'resourceId', operator: '' },
    ]);
    expect(templateVariables('file://{+path}{?q,page}{&q}')).toEqual([
      { name: 'path', operator: '+' },
      { name: 'q', operator: '?' },
      { name: 'page', operator: '?' },
    ]);
    expect(templateVariables('x://{list*}/{name:3}')).toEqual([
      { name: 'list', operator: '' },
      { name: 'name', operator: '' },
    ]);
  });

  it('expands values, encoding them unless the operator allows reserved characters', () => {
    expect(expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' })).toBe(
      'demo://resource/dynamic/text/7',
    );
    expect(expandTemplate('note://{name}', { name: 'a b/c' })).toBe('note://a%20b%2Fc');
    expect(expandTemplate('file://{+path}', { path: '/tmp/a b' })).toBe('file:///tmp/a%20b');
    expect(expandTemplate('s://search{?q,page}', { q: 'cats', page: '' })).toBe('s://search?q=cats');
    expect(expandTemplate('s://search{?q}', {})).toBe('s://search');
  });
});

describe('previews and attachments', () => {
  it('picks a grammar by MIME type', () => {
    expect(languageForMime('application/json; charset=utf-8')).toBe('json');
    expect(languageForMime('application/ld+json')).toBe('json');
    expect(languageForMime('text/html')).toBe('xml');
    expect(languageForMime('text/plain')).toBeUndefined();
    expect(languageForMime(undefined)).toBeUndefined();
  });

  it('pretty-prints JSON and leaves broken JSON alone', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('{oops')).toBe('{oops');
  });

  it('turns images into image attachments and everything else into embedded resources', () => {
    expect(
      toAttachment('s', 'pixel', { kind: 'blob', uri: 'image://p', mimeType: 'image/png', blob: 'AAAA', size: 3 }),
    ).toEqual({
      server: 's',
      label: 'pixel',
      content: { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    });
    expect(
      toAttachment('s', 'readme', { kind: 'text', uri: 'note://readme', mimeType: 'text/markdown', text: '# Hi' }),
    ).toEqual({
      server: 's',
      label: 'readme',
      content: { type: 'resource', resource: { uri: 'note://readme', mimeType: 'text/markdown', text: '# Hi' } },
    });
    expect(toAttachment('s', 'bin', { kind: 'blob', uri: 'x://b', blob: 'AAAA', size: 3 }).content).toEqual({
      type: 'resource',
      resource: { uri: 'x://b', blob: 'AAAA' },
    });
  });

  it('names downloads after the last URI segment', () => {
    expect(downloadName('demo://resource/dynamic/blob/7')).toBe('7');
    expect(downloadName('file:///tmp/report%201.pdf')).toBe('report 1.pdf');
    expect(downloadName('x://')).toBe('resource');
  });
});
