// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { renderWithBerth as render } from '../../test-support/render-with-berth';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownRenderer } from './markdown-renderer';

afterEach(cleanup);

const TEXT =
  'See [setup](setup.md), [the site](https://example.com/), [top](#top) and [evil](javascript:alert(1)).\n\n![diagram](img/d.png)';

describe('links in Markdown', () => {
  it('in a reply, only absolute web links are links; relative ones stay text with where they lead in the tooltip', () => {
    render(<MarkdownRenderer text={TEXT} />);
    expect(screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['the site', 'https://example.com/'],
    ]);
    expect(screen.getByText('setup').getAttribute('title')).toBe('Not opened by Berth: setup.md');
    expect(screen.getByText('top').closest('a')).toBeNull();
    expect(screen.getByText('evil').closest('a')).toBeNull();
    expect(screen.getByText('Image: diagram').closest('a')).toBeNull();
  });

  it('in a resource with a web address, relative links resolve against it', () => {
    render(<MarkdownRenderer text={TEXT} baseUri="https://docs.example.org/guide/readme.md" />);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'https://docs.example.org/guide/setup.md',
      'https://example.com/',
      'https://docs.example.org/guide/readme.md#top',
      'https://docs.example.org/guide/img/d.png',
    ]);
  });

  it('in a resource of a server-defined scheme, relative links are not opened', () => {
    render(<MarkdownRenderer text={TEXT} baseUri="file:///home/me/notes/readme.md" />);
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual(['https://example.com/']);
  });
});
