// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState, ToolInfo } from '../../../shared/domain';
import { fail, ok } from '../../../shared/result';
import { connectStore } from '../../store';
import { serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { TaskSettingFacts, taskToolsSummary } from './task-setting';
import { activateLocale } from '../../i18n/i18n';
import { shownToasts } from '../../test-support/shown-toasts';

afterEach(cleanup);

const tool = (name: string, taskSupport?: 'required' | 'optional' | 'forbidden'): ToolInfo => ({
  name,
  inputSchema: { type: 'object' },
  ...(taskSupport ? { execution: { taskSupport } } : {}),
});
const everything = serverState('everything', {
  status: 'ready',
  era: 'legacy',
  capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
  tools: [
    tool('echo'),
    tool('research', 'required'),
    tool('fetch', 'optional'),
    tool('crawl', 'optional'),
    tool('add', 'forbidden'),
  ],
});

function mount(handlers: FakeHandlers = {}, server: ServerState = everything) {
  const view = renderWithBerth(
    <dl>
      <TaskSettingFacts server={server} />
    </dl>,
    { handlers },
  );
  return { transport: view.transport, store: view.store, view };
}

const theSwitch = () => screen.getByRole('switch', { name: 'Run long tool calls as tasks' });

describe("the Overview's task switch", () => {
  it('is on by default, explains itself, and counts the tools that must and can run as tasks', () => {
    mount();
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    expect(
      theSwitch().getAttribute('aria-describedby') &&
        document.getElementById(theSwitch().getAttribute('aria-describedby')!)?.textContent,
    ).toBe(
      'Tools that can run in the background report progress and can be cancelled; Berth checks on them instead of waiting on one request.',
    );
    expect(screen.getByTestId('task-tool-counts').textContent).toBe(
      'Of its 5 tools, 1 must run as a task (whatever this says) and 2 can (this switch decides).',
    );
  });

  it("shows the host's stored choice and follows changes made in another window", async () => {
    const { store, transport } = mount({
      'tasks.serverSettings': () => ok([{ server: 'everything', optionalToolsAsTasks: false }]),
    });
    const disconnect = connectStore(store, transport);
    await waitFor(() => expect(theSwitch().getAttribute('aria-checked')).toBe('false'));
    act(() => transport.emit('tasks.serverSettingsChanged', { server: 'everything', optionalToolsAsTasks: true }));
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    disconnect();
  });

  it('asks the host to change it, keeps the focus on the switch, and shows what the host kept', async () => {
    const { transport } = mount({
      'tasks.setServerSettings': ({ server, optionalToolsAsTasks }) => ok({ server, optionalToolsAsTasks }),
    });
    theSwitch().focus();
    // A Radix switch is a <button role="switch">: the browser turns Space and Enter into this click (pressed for real in e2e/server-settings.spec.ts).
    fireEvent.click(theSwitch());
    await waitFor(() => expect(theSwitch().getAttribute('aria-checked')).toBe('false'));
    expect(document.activeElement).toBe(theSwitch());
    expect(transport.calls.filter((c) => c.method === 'tasks.setServerSettings').map((c) => c.input)).toEqual([
      { server: 'everything', optionalToolsAsTasks: false },
    ]);
  });

  it('puts the switch back and says why when the host refuses', async () => {
    const { store } = mount({
      'tasks.setServerSettings': () => fail('IO_ERROR', 'Could not save settings.json: disk full'),
    });
    fireEvent.click(theSwitch());
    await waitFor(() => expect(shownToasts(store)).toHaveLength(1));
    expect(shownToasts(store)[0]).toMatchObject({
      tone: 'error',
      title: 'Could not change how “everything” runs long tool calls',
      message: expect.stringContaining('disk full'),
    });
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
  });

  it.each([
    ['a server not ready yet', serverState('x'), 'Which of its tools can run as tasks is known once it is ready.'],
    [
      'a ready server without tools',
      serverState('x', { status: 'ready' }),
      'It offers no tools, so this changes nothing for it.',
    ],
    [
      'tools none of which can be tasks',
      serverState('x', { status: 'ready', tools: [tool('a'), tool('b', 'forbidden')] }),
      'None of its 2 tools can run as a task, so this changes nothing for it.',
    ],
    [
      'only optional ones',
      serverState('x', { status: 'ready', tools: [tool('a'), tool('b', 'optional')] }),
      'Of its 2 tools, 1 can run as a task: this switch decides.',
    ],
    [
      'its only tool, which cannot',
      serverState('x', { status: 'ready', tools: [tool('a')] }),
      'Its only tool cannot run as a task, so this changes nothing for it.',
    ],
    [
      'only required ones',
      serverState('x', { status: 'ready', tools: [tool('a', 'required'), tool('b', 'required')] }),
      'Of its 2 tools, 2 must run as tasks, whatever this says; none is left to this switch.',
    ],
    [
      'a 2025-11-25 server that declares no task support',
      serverState('x', { status: 'ready', era: 'legacy', capabilities: { tools: {} }, tools: [tool('a', 'optional')] }),
      'Its only tool can run as a task: this switch decides. The server does not declare task support, though, so Berth calls its tools plainly.',
    ],
  ])('says what it means for %s', (_label, server, text) => {
    mount({}, server);
    expect(screen.getByTestId('task-tool-counts').textContent).toBe(text);
  });

  it('says it in the person’s language, counting with the language’s plural rules', async () => {
    await activateLocale('zh-CN');
    const ready = (tools: ToolInfo[]) => serverState('x', { status: 'ready', tools });
    expect(taskToolsSummary(ready([tool('a'), tool('b', 'optional')]))).toBe(
      '在它的 2 个工具中，有 1 个可以作为任务运行：由此开关决定。',
    );
    await activateLocale('ko');
    expect(taskToolsSummary(ready([tool('a', 'required')]))).toBe(
      '하나뿐인 도구는 이 설정과 관계없이 작업으로 실행해야 하며, 이 스위치로 정할 도구는 없습니다.',
    );
  });
});
