// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { nameToolTwins, type ToolInfo } from '../../../shared/domain';
import { activateLocale } from '../../i18n/i18n';
import { serverState } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ServerDetail } from './server-detail';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const tool = (name: string, property: string, description: string): ToolInfo => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { [property]: { type: 'string' } } },
});

/** The list as Berth's host gives it: two tools named search, a third, and one listed twice alike. */
const tools = nameToolTwins([
  tool('search', 'query', 'Search the notes'),
  tool('read', 'path', 'Read a file'),
  tool('search', 'pattern', 'Search the files'),
  tool('read', 'path', 'Read a file'),
  tool('search', 'url', 'Search the web'),
]);

function mount(list: ToolInfo[] = tools) {
  return renderWithBerth(<ServerDetail server={serverState('dup', { status: 'ready', tools: list })} />);
}

const card = (name: string): HTMLElement => {
  const found = document.querySelector<HTMLElement>(`[data-tool="${name}"]`);
  if (found === null) throw new Error(`no card for ${name}`);
  return found;
};

describe('the server detail when tools share a name', () => {
  it('says which names are shared and what the model is offered instead', () => {
    mount();
    const notice = screen.getByRole('group', { name: 'Tools that share a name' });
    const items = within(notice)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      '3 tools share the name search: the others are offered to the model as search_2, search_3.',
      'read is listed 2 times with the same definition: it is offered to the model once.',
    ]);
    expect(notice.textContent).toContain('calls still reach the server under the name it gave');
  });

  it('says "the second" for a pair', () => {
    mount(nameToolTwins([tool('search', 'query', 'notes'), tool('search', 'pattern', 'files')]));
    expect(screen.getByTestId('tool-twins').querySelector('li')?.textContent).toBe(
      '2 tools share the name search: the second is offered to the model as search_2.',
    );
  });

  it('marks the renamed tools and the repeated one in the Tools tab, and nothing else', () => {
    mount();
    expect(within(card('search_2')).getByText('listed as search').getAttribute('title')).toBe(
      'An earlier tool of this server has the same name, search: the model is offered this one as search_2, and its calls reach the server as search.',
    );
    expect(within(card('search_3')).getByText('listed as search')).toBeTruthy();
    expect(within(card('read')).getByText('listed 2 times')).toBeTruthy();
    expect(within(card('search')).queryByText(/listed/)).toBeNull();
  });

  it('shows no notice when every name is the server’s own', () => {
    mount([tool('search', 'query', 'notes'), tool('read', 'path', 'file')]);
    expect(screen.queryByTestId('tool-twins')).toBeNull();
    expect(document.querySelectorAll('.tool .chip')).toHaveLength(0);
  });

  it('reads in Chinese, the tool names as the server wrote them', async () => {
    await activateLocale('zh-CN');
    mount(nameToolTwins([tool('search', 'query', 'notes'), tool('search', 'pattern', 'files')]));
    expect(screen.getByTestId('tool-twins').querySelector('li')?.textContent).toBe(
      '2 个工具同名 search：第二个以 search_2 的名称提供给模型。',
    );
    expect(within(card('search_2')).getByText('服务器中的名称：search')).toBeTruthy();
  });
});
