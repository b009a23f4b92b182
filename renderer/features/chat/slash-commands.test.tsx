// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workspaceError } from '../../../shared/domain/workspace-errors';
import { activateLocale } from '../../i18n/i18n';
import type { PromptCatalog } from '../../../shared/contract/prompts';
import { fail, ok } from '../../../shared/result';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const CATALOG: PromptCatalog = {
  servers: [{ name: 'everything', completions: false }],
  problems: [],
  prompts: [
    {
      server: 'everything',
      name: 'simple-prompt',
      title: 'Simple Prompt',
      description: 'A prompt with no arguments',
      arguments: [],
    },
    {
      server: 'everything',
      name: 'args-prompt',
      title: 'Arguments Prompt',
      arguments: [{ name: 'city', description: 'Name of the city', required: true }, { name: 'state' }],
    },
    {
      server: 'everything',
      name: 'completable-prompt',
      title: 'Team Management',
      arguments: [{ name: 'department', required: true }],
    },
  ],
};

function mount(handlers: FakeHandlers) {
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
        }),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Weather', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 }]),
      'chat.get': () =>
        ok({
          id: 'c1',
          title: 'Weather',
          createdAt: 1,
          updatedAt: 2,
          model: 'claude-a',
          messages: [],
          disabledServers: [],
          disabledTools: [],
        }),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      ...handlers,
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

async function typeSlash(text: string): Promise<HTMLTextAreaElement> {
  const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
  fireEvent.change(box, { target: { value: text } });
  return box;
}

describe('slash commands in the composer', () => {
  it('lists, filters and navigates prompts from the keyboard, and Esc closes the menu', async () => {
    mount({ 'prompts.list': () => ok(CATALOG) });
    const box = await typeSlash('/');
    const listbox = await screen.findByRole('listbox', { name: 'Prompts' });
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringContaining('/simple-prompt'),
      expect.stringContaining('/args-prompt'),
      expect.stringContaining('/completable-prompt'),
    ]);
    expect(box.getAttribute('role')).toBe('combobox');
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[2]?.id);
    expect(options[2]?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);

    fireEvent.change(box, { target: { value: '/team' } });
    expect(within(screen.getByRole('listbox', { name: 'Prompts' })).getAllByRole('option')).toHaveLength(1);
    fireEvent.change(box, { target: { value: '/zzz' } });
    expect(screen.getByRole('group', { name: 'Prompts' }).textContent).toContain('No prompt matches “zzz”');

    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Prompts' })).toBeNull();
    expect(box.value).toBe('/zzz');
    expect(box.getAttribute('role')).toBeNull();
  });

  it('explains when no ready server offers prompts', async () => {
    mount({ 'prompts.list': () => ok({ servers: [], prompts: [], problems: [] }) });
    await typeSlash('/');
    expect((await screen.findByRole('group', { name: 'Prompts' })).textContent).toContain(
      'No ready server offers prompts. Start a server that has prompts',
    );
  });

  it('validates the form, sends the arguments, and puts the messages into the draft with role labels and attachments', async () => {
    const { transport } = mount({
      'prompts.list': () => ok(CATALOG),
      'prompts.get': ({ arguments: args }) =>
        args?.city === 'Nowhere'
          ? fail(
              'SERVER_ERROR',
              "server 'everything' answered prompts/get prompt 'args-prompt' with error -32602: unknown city",
            )
          : ok({
              messages: [
                { role: 'user' as const, content: { type: 'text' as const, text: `Weather in ${args?.city ?? ''}?` } },
                {
                  role: 'assistant' as const,
                  content: { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' },
                },
                { role: 'assistant' as const, content: { type: 'text' as const, text: 'Sunny.' } },
              ],
            }),
    });
    const box = await typeSlash('/args');
    await screen.findByRole('listbox', { name: 'Prompts' });
    fireEvent.keyDown(box, { key: 'Enter' });
    const form = await screen.findByRole('form', { name: /args-prompt/ });
    expect(box.value).toBe('');
    const city = within(form).getByRole('combobox', { name: /city/ }) as HTMLInputElement;
    expect(city.getAttribute('aria-required')).toBe('true');
    expect(within(form).getByText('(optional)')).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'Insert prompt' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter city: this prompt needs it');
    expect(transport.calls.some((call) => call.method === 'prompts.get')).toBe(false);

    fireEvent.change(city, { target: { value: 'Nowhere' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Insert prompt' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('unknown city');

    fireEvent.change(city, { target: { value: 'Paris' } });
    await act(async () => fireEvent.keyDown(city, { key: 'Enter' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(transport.calls.filter((call) => call.method === 'prompts.get').at(-1)?.input).toEqual({
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Paris' },
    });
    expect(box.value).toBe('User:\nWeather in Paris?\n\nAssistant:\nSunny.');
    expect(
      within(screen.getByRole('list', { name: 'Attachments' })).getByText('Arguments Prompt · image 1 (assistant)'),
    ).toBeTruthy();
  });

  it('words the prompt form in the active language: fields, suggestions, the count left and the error', async () => {
    mount({
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
          language: 'zh-CN',
        }),
      'prompts.list': () => ok({ ...CATALOG, servers: [{ name: 'everything', completions: true }] }),
      'completion.complete': () => ok({ values: ['Engineering', 'Sales'], total: 5 }),
    });
    const box = (await screen.findByRole('textbox', { name: '消息' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '/completable' } });
    await screen.findByRole('listbox', { name: '提示词' });
    fireEvent.keyDown(box, { key: 'Enter' });
    const form = await screen.findByRole('form', { name: /completable-prompt/ });
    expect(within(form).getByRole('button', { name: '关闭提示词表单' })).toBeTruthy();
    expect(form.textContent).toContain('* 必填 · 提示词会放入你的消息，由你来发送');
    fireEvent.click(within(form).getByRole('button', { name: '插入提示词' }));
    expect(within(form).getByRole('alert').textContent).toBe('请输入 department：此提示词需要它');

    const field = within(form).getByRole('combobox', { name: /department/ });
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: 'E' } });
    const list = await within(form).findByRole('listbox', { name: 'department 的建议' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Engineering', 'Sales']);
    expect(list.textContent).toContain('还有 3 项，继续输入可缩小范围');
  });

  it("words a prompt the server sent in a form Berth cannot use from the failure's code, and re-words it on a language switch", async () => {
    await activateLocale('ko');
    const refusal = workspaceError('workspace-errors.prompt-unsupported', {
      server: 'everything',
      name: 'simple-prompt',
      index: 2,
      kind: 'video',
    });
    mount({
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
          language: 'ko',
        }),
      'prompts.list': () => ok(CATALOG),
      'prompts.get': () => fail('SERVER_ERROR', refusal.text, undefined, refusal.hostMessage),
    });
    const box = (await screen.findByRole('textbox', { name: '메시지' })) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '/args' } });
    await screen.findByRole('listbox', { name: '프롬프트' });
    fireEvent.keyDown(box, { key: 'Enter' });
    const form = await screen.findByRole('form', { name: /args-prompt/ });
    fireEvent.change(within(form).getByRole('combobox', { name: /city/ }), { target: { value: 'Paris' } });
    fireEvent.click(within(form).getByRole('button', { name: '프롬프트 삽입' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      '서버 “everything”이(가) 보낸 프롬프트 “simple-prompt”의 2번째 메시지는 지원하지 않는 종류(video)입니다.',
    );
    await act(() => activateLocale('ja'));
    expect(within(form).getByRole('alert').textContent).toBe(
      'サーバー「everything」が返したプロンプト「simple-prompt」の 2 番目のメッセージは、対応していない種類（video）です。',
    );
  });
});
