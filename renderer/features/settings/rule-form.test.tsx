// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentPolicy } from '../../../shared/domain/consent';
import { ok } from '../../../shared/result';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { ConsentPoliciesSection } from './policies-section';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const tools = [
  { name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'get-sum', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'get-env', inputSchema: { type: 'object' } },
];

function setup(policies: ConsentPolicy[] = []) {
  const transport = createFakeTransport();
  transport.handlers['consent.addRule'] = ({ server, rule }) =>
    ok({
      id: 'r1',
      scope: 'rule',
      server,
      rule,
      tools: rule.kind === 'read-only' ? ['echo', 'get-sum'] : ['get-env', 'get-sum'],
      createdAt: 1,
    });
  const { store } = renderWithBerth(<ConsentPoliciesSection />, {
    transport,
    prepare: (store) => {
      store
        .getState()
        .applyServersSnapshot([serverState('everything', { status: 'ready', tools }), serverState('stopped')]);
      store.getState().applyConsentPolicies(policies);
    },
  });
  return { transport, store };
}

describe('<RuleForm> in Tool permissions', () => {
  it('previews the tools a pattern covers, refuses bad patterns, and adds the rule', async () => {
    const { transport } = setup();
    const form = screen.getByTestId('rule-form');
    expect(
      within(form)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['everything']);
    const input = within(form).getByRole('textbox', { name: 'Tool names that match' });
    fireEvent.change(input, { target: { value: 'get_(x)' } });
    expect(within(form).getByText(/a pattern may hold letters/)).toBeTruthy();
    expect((within(form).getByRole('button', { name: 'Add rule' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'get-*' } });
    expect(screen.getByTestId('rule-preview').textContent).toBe(
      'Covers these 2 tools, as listed now: get-sum, get-env. A tool added later, or one that changes, asks again.',
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Add rule' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'consent.addRule').map((c) => c.input)).toEqual([
        { server: 'everything', rule: { kind: 'name-pattern', pattern: 'get-*' } },
      ]),
    );
    const table = await screen.findByRole('table', { name: 'Tool permissions' });
    expect(table.textContent).toContain('Your rule: tools whose names match get-*');
  });

  it('Enter in the pattern adds the rule, as the button does; not while the pattern covers nothing', async () => {
    const { transport } = setup();
    const input = within(screen.getByTestId('rule-form')).getByRole('textbox', { name: 'Tool names that match' });
    const added = () => transport.calls.filter((c) => c.method === 'consent.addRule').map((c) => c.input);
    fireEvent.change(input, { target: { value: 'get_(x)' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(added()).toEqual([]);
    fireEvent.change(input, { target: { value: 'get-*' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() =>
      expect(added()).toEqual([{ server: 'everything', rule: { kind: 'name-pattern', pattern: 'get-*' } }]),
    );
  });

  it('marks the read-only rule as trusting the server and lists it revocable', async () => {
    setup([
      {
        id: 'r2',
        scope: 'rule',
        server: 'everything',
        rule: { kind: 'read-only' },
        tools: ['echo', 'get-sum'],
        createdAt: 1,
      },
    ]);
    fireEvent.click(screen.getByRole('radio', { name: 'Marked read-only' }));
    expect(screen.getByTestId('read-only-trust').textContent).toContain('trusts the server’s own claim');
    expect(screen.getByTestId('rule-preview').textContent).toContain('echo, get-sum');
    const row = screen
      .getByRole('table', { name: 'Tool permissions' })
      .querySelector('tr[data-policy="r2"]') as HTMLElement;
    expect(row.textContent).toContain('trusts the server’s claim');
    expect(row.textContent).toContain('echo, get-sum');
    expect(
      within(row).getByRole('button', { name: /Revoke permission for tools the server marks read-only/ }),
    ).toBeTruthy();
  });
});

describe('<RuleForm> in the person’s language', () => {
  it('words the form, its preview, a bad pattern and the added rule in Chinese, the tool names as listed', async () => {
    await activateLocale('zh-CN');
    const { store } = setup();
    const form = screen.getByTestId('rule-form');
    expect(within(form).getByRole('heading', { name: '添加规则' })).toBeTruthy();
    expect(within(form).getByRole('radiogroup', { name: '哪些工具' })).toBeTruthy();
    const input = within(form).getByRole('textbox', { name: '要匹配的工具名称' });
    expect(within(form).getByText(/^\* 代表任意多个字符/)).toBeTruthy();
    fireEvent.change(input, { target: { value: 'get_(x)' } });
    expect(within(form).getByText('模式只能包含字母、数字、_ . - / 以及通配符 * 和 ?')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'nothing*' } });
    expect(screen.getByTestId('rule-preview').textContent).toBe('此服务器没有符合此规则的工具。');
    fireEvent.change(input, { target: { value: 'get-*' } });
    expect(screen.getByTestId('rule-preview').textContent).toBe(
      '覆盖这 2 个工具（按当前列表）：get-sum, get-env。之后新增或发生变化的工具会重新询问。',
    );
    fireEvent.click(within(form).getByRole('button', { name: '添加规则' }));
    await waitFor(() =>
      expect(shownToasts(store).map((toast) => [toast.title, toast.message])).toContainEqual([
        '已添加规则',
        '“everything”的 2 个工具将免询问运行。',
      ]),
    );
    fireEvent.click(within(form).getByRole('radio', { name: '标记为只读' }));
    expect(screen.getByTestId('read-only-trust').textContent).toBe(
      '这将信任服务器自己的声明（readOnlyHint）。Berth 无法确认标记为只读的工具确实只读取数据；请仅对你信任的服务器允许此项。',
    );
  });

  it('counts one tool as one in English: the preview and the toast', async () => {
    const { transport, store } = setup();
    transport.handlers['consent.addRule'] = ({ server, rule }) =>
      ok({ id: 'r3', scope: 'rule', server, rule, tools: ['echo'], createdAt: 1 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Tool names that match' }), { target: { value: 'ech?' } });
    expect(screen.getByTestId('rule-preview').textContent).toBe(
      'Covers this tool, as listed now: echo. A tool added later, or one that changes, asks again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add rule' }));
    await waitFor(() =>
      expect(shownToasts(store).map((toast) => toast.message)).toContain('1 tool of “everything” runs without asking.'),
    );
  });
});
