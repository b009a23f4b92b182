// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { SafeName } from './safe-name';

afterEach(cleanup);

describe('a server-chosen name holding hidden characters', () => {
  it('says why it is marked in the person’s language, the escapes kept as written', async () => {
    await activateLocale('zh-CN');
    renderWithBerth(<SafeName name={'evil\u202Etxt'} />);
    const name = screen.getByText('evil\\u202Etxt');
    expect(name.getAttribute('title')).toBe('此名称包含不可见或改变文字方向的字符，已显示为 \\u 转义');
  });

  it('has no title when nothing is hidden', async () => {
    await activateLocale('en');
    renderWithBerth(<SafeName name="files" />);
    expect(screen.getByText('files').hasAttribute('title')).toBe(false);
  });
});
