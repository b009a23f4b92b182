// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { serverState } from '../../test-support/fake-transport';
import { ConsentPoliciesSection, SamplingPoliciesSection } from './policies-section';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

describe('<ConsentPoliciesSection>: stale permissions', () => {
  it('marks each permission that no longer applies, says why, and the others as in effect', () => {
    renderWithBerth(<ConsentPoliciesSection />, {
      prepare: (store) =>
        store.getState().applyConsentPolicies([
          { id: 'a', scope: 'server', server: 'files', createdAt: 1, stale: 'server-changed' },
          { id: 'b', scope: 'tool', server: 'notes', tool: 'read_note', createdAt: 2, stale: 'tool-changed' },
          { id: 'c', scope: 'tool', server: 'notes', tool: 'list', createdAt: 3, stale: 'unrecorded' },
          { id: 'd', scope: 'tool', server: 'notes', tool: 'search', createdAt: 4 },
        ]),
    });
    const table = screen.getByRole('table', { name: 'Tool permissions' });
    const state = (id: string) => {
      const row = table.querySelector(`tr[data-policy="${id}"]`);
      if (!(row instanceof HTMLElement)) throw new Error(`no row for ${id}`);
      return within(row).getAllByRole('cell')[4]?.textContent;
    };
    expect(within(table).getByRole('columnheader', { name: 'State' })).toBeTruthy();
    expect(state('a')).toMatch(/^Server changed — This server’s command or address is not the one you allowed/);
    expect(state('b')).toMatch(
      /^Tool changed — The server changed this tool’s description, input schema or annotations/,
    );
    expect(state('c')).toMatch(/^Needs a new yes — Given in an earlier version of Berth/);
    expect(state('d')).toBe('In effect');
  });
});

describe('<ConsentPoliciesSection> and <SamplingPoliciesSection> in Chinese', () => {
  it("word the permissions, the revoke confirmation and the sampling policies in the person's language", async () => {
    await activateLocale('zh-CN');
    const since = new Date(2026, 5, 15, 12).getTime();
    const { transport, store } = renderWithBerth(
      <>
        <ConsentPoliciesSection />
        <SamplingPoliciesSection />
      </>,
      {
        handlers: { 'consent.revoke': ({ id }) => ok({ revoked: id }) },
        prepare: (store) => {
          store.getState().applyServersSnapshot([serverState('files')]);
          store.getState().applyConsentPolicies([
            { id: 'a', scope: 'server', server: 'files', createdAt: since, stale: 'server-changed' },
            { id: 'b', scope: 'conversation', server: 'notes', tool: 'read', conversationId: 'gone', createdAt: since },
            {
              id: 'c',
              scope: 'rule',
              server: 'notes',
              rule: { kind: 'read-only' },
              tools: ['list', 'read'],
              createdAt: since,
            },
          ]);
        },
      },
    );
    expect(screen.getByRole('heading', { name: '工具权限' })).toBeTruthy();
    const table = screen.getByRole('table', { name: '工具权限' });
    expect(within(table).getByRole('columnheader', { name: '允许范围' })).toBeTruthy();
    const row = (id: string) => table.querySelector(`tr[data-policy="${id}"]`) as HTMLElement;
    expect(row('a').textContent).toContain('该服务器的所有工具');
    expect(row('a').textContent).toContain('2026年6月15日');
    expect(row('a').textContent).toContain('服务器已变更 — 此服务器的命令或地址与你允许时不同。');
    expect(row('b').textContent).toContain('此工具，仅限一个对话（直到重启）');
    expect(row('b').textContent).toContain('生效中');
    expect(row('c').textContent).toContain('你的规则：服务器标记为只读的工具（服务器自己的声明）信任服务器的声明');

    fireEvent.click(
      within(row('c')).getByRole('button', { name: '撤销对“notes”中服务器标记为只读的工具（服务器自己的声明）的权限' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: '要撤销此权限吗？' });
    expect(confirm.textContent).toContain(
      '运行“notes”中服务器标记为只读的工具（服务器自己的声明）之前，Berth 将重新询问。',
    );
    expect(within(confirm).getByRole('button', { name: '保留' })).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'consent.revoke')).toBe(true));
    await waitFor(() =>
      expect(shownToasts(store).map((toast) => [toast.title, toast.message])).toContainEqual([
        '权限已撤销',
        '调用“notes”中服务器标记为只读的工具（服务器自己的声明）时将重新询问。',
      ]),
    );

    const sampling = screen.getByRole('radiogroup', { name: 'files 的采样策略' });
    expect(
      within(sampling)
        .getAllByRole('radio')
        .map((radio) => radio.textContent),
    ).toEqual(['每次询问', '本次会话允许', '本次会话拒绝', '永不']);
    expect(screen.getByRole('list', { name: '各服务器的采样策略' })).toBeTruthy();
  });
});
