// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/domain/chat';
import type { TaskRecord } from '../../../shared/domain/task';
import { taskStatusWords } from '../../../shared/domain/task-errors';
import { fail, ok } from '../../../shared/result';
import { createFakeTransport, type FakeHandlers } from '../../test-support/fake-transport';
import { useMountedAppEnvironment } from '../../test-support/mounted-app';
import { ageParts, progressText, taskChip, taskDetail, taskSubject } from './task-model';
import { activateLocale } from '../../i18n/i18n';
import { translate } from '../../i18n/use-t';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

useMountedAppEnvironment();

const NOW = Date.now();

function task(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    taskId: `srv-${id}`,
    server: 'everything',
    side: 'requester',
    kind: 'tool',
    tool: 'simulate-research-query',
    status: 'working',
    createdAt: NOW - 90_000,
    updatedAt: NOW - 90_000,
    ...overrides,
  };
}

/** A conversation whose first reply calls the research tool, followed by enough messages that its card starts far out of view. */
function researchMessages(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { id: 'u0', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Research tides' }] },
    {
      id: 'a0',
      role: 'assistant',
      createdAt: 2,
      content: [
        {
          type: 'tool_use',
          id: 'tu-research',
          server: 'everything',
          tool: 'simulate-research-query',
          apiName: 'everything__simulate-research-query',
          input: { topic: 'tides' },
        },
      ],
    },
    {
      id: 'r0',
      role: 'user',
      createdAt: 3,
      content: [
        {
          type: 'tool_result',
          toolUseId: 'tu-research',
          isError: false,
          content: [{ type: 'text', text: 'Report on tides' }],
        },
      ],
    },
  ];
  for (let i = 1; i <= 30; i++) {
    messages.push({
      id: `u${i}`,
      role: 'user',
      createdAt: 3 + 2 * i,
      content: [{ type: 'text', text: `Question ${i}` }],
    });
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      createdAt: 4 + 2 * i,
      content: [{ type: 'text', text: `Answer ${i}` }],
    });
  }
  return messages;
}

function mount(tasks: TaskRecord[], handlers: FakeHandlers = {}) {
  const transport = createFakeTransport({
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
    'pending.list': () => ok([]),
    'elicitation.awaiting': () => ok([]),
    'chat.list': () =>
      ok([
        { id: 'c1', title: 'Tide research', createdAt: 1, updatedAt: 70, model: 'claude-a', messageCount: 63 },
        { id: 'c0', title: 'Other chat', createdAt: 0, updatedAt: 0, model: 'claude-a', messageCount: 0 },
      ]),
    'chat.get': ({ id }) =>
      ok({
        id,
        title: id === 'c1' ? 'Tide research' : 'Other chat',
        createdAt: 1,
        updatedAt: 70,
        model: 'claude-a',
        messages: id === 'c1' ? researchMessages() : [],
        disabledServers: [],
        disabledTools: [],
      }),
    'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
    'tasks.list': () => ok(tasks),
    'tasks.setWindowVisible': () => ok({}),
    ...handlers,
  });
  return renderAppWithBerth({ transport, prepare: (store) => store.getState().showView('tasks') });
}

describe('<TasksView>', () => {
  it('explains what tasks are when there are none', async () => {
    mount([]);
    // The first test pays for the app's first render on a busy machine.
    expect(await screen.findByRole('heading', { name: 'No tasks' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText(/Long-running tool calls and requests from servers appear here/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear finished' })).toBeNull();
  });

  it('shows a running task in words, with its server, tool, conversation, message, progress and age, and cancels it', async () => {
    const { transport } = mount(
      [
        task('t1', {
          conversationId: 'c1',
          toolUseId: 'tu-research',
          statusMessage: 'Gathering sources',
          progress: { progress: 2, total: 5 },
        }),
      ],
      {
        'tasks.cancel': () => ok({ status: 'cancelled' }),
      },
    );
    const running = await screen.findByRole('list', { name: 'Running tasks' });
    const row = within(running).getByRole('listitem', { name: 'simulate-research-query on everything' });
    expect(within(row).getByText('Working')).toBeTruthy();
    expect(within(row).getByText('Gathering sources')).toBeTruthy();
    expect(within(row).getByText('2 of 5')).toBeTruthy();
    expect(
      within(row)
        .getByRole('progressbar', { name: 'Progress of simulate-research-query' })
        .getAttribute('aria-valuenow'),
    ).toBe('40');
    expect(await within(row).findByText('Tide research')).toBeTruthy();
    expect(within(row).getByText(/Started 1 min ago/)).toBeTruthy();
    // The navigation says how many run.
    expect(screen.getByRole('navigation', { name: 'Main' }).querySelector('.nav-count-live')?.textContent).toBe(
      '1 running',
    );

    fireEvent.click(within(row).getByRole('button', { name: 'Cancel task' }));
    await waitFor(() =>
      expect(transport.calls.filter((c) => c.method === 'tasks.cancel').map((c) => c.input)).toEqual([{ id: 't1' }]),
    );
    // The host's event moves it to the finished tasks.
    act(() =>
      transport.emit('tasks.changed', {
        changed: [task('t1', { conversationId: 'c1', toolUseId: 'tu-research', status: 'cancelled', updatedAt: NOW })],
        removed: [],
      }),
    );
    const finished = screen.getByRole('list', { name: 'Finished tasks' });
    expect(within(finished).getByText('Cancelled')).toBeTruthy();
    expect(within(finished).queryByRole('button', { name: 'Cancel task' })).toBeNull();
    expect(screen.getByText('Nothing is running.')).toBeTruthy();
  });

  it('shows a refused cancel as an error and keeps the task running', async () => {
    mount([task('t1')], { 'tasks.cancel': () => fail('INTERNAL', 'the server did not answer tasks/cancel') });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel task' }));
    expect(await screen.findByText('the server did not answer tasks/cancel')).toBeTruthy();
    expect(screen.getByText('Could not cancel the task')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel task' })).toHaveProperty('disabled', false);
  });

  it('“Show in chat” opens the conversation and focuses the tool card, scrolled into view', async () => {
    const { store } = mount([task('t1', { conversationId: 'c1', toolUseId: 'tu-research', status: 'completed' })]);
    fireEvent.click(await screen.findByRole('button', { name: 'Show in chat' }));
    await waitFor(() => expect((document.activeElement as HTMLElement | null)?.dataset.toolUse).toBe('tu-research'), {
      timeout: 5_000,
    });
    expect(store.getState()).toMatchObject({ view: 'chat', activeConversationId: 'c1', toolCardFocus: undefined });
    expect(within(document.activeElement as HTMLElement).getByText('Report on tides')).toBeTruthy();
  });

  it('names requests a server asked Berth to run, says why a task was lost or failed, answers, and clears the finished ones', async () => {
    const { transport, store } = mount(
      [
        task('r1', { side: 'receiver', kind: 'elicitation', tool: undefined, server: 'forms', waitingFor: 'p-9' }),
        task('l1', {
          status: 'lost',
          statusMessage: 'The stdio server stopped while the task ran',
          createdAt: NOW - 7_200_000,
        }),
        task('f1', { status: 'failed', error: 'Upstream timeout', createdAt: NOW - 3_600_000 }),
        task('x1', {
          tool: 'purged-tool',
          status: 'lost',
          expired: true,
          statusMessage: 'expired — no longer on the server',
          createdAt: NOW - 1_800_000,
        }),
      ],
      { 'tasks.clear': () => ok({ removed: 3 }) },
    );
    const row = await screen.findByRole('listitem', { name: 'elicitation on forms' });
    expect(within(row).getByText('Needs your answer')).toBeTruthy();
    expect(within(row).getByText('Asked by forms')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Show in chat' })).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Answer' }));
    expect(store.getState().focusedPending).toBe('p-9');

    const finished = screen.getByRole('list', { name: 'Finished tasks' });
    expect(within(finished).getByText('Lost')).toBeTruthy();
    expect(within(finished).getByText('The stdio server stopped while the task ran')).toBeTruthy();
    expect(within(finished).getByText('Failed')).toBeTruthy();
    expect(within(finished).getByText('Upstream timeout')).toBeTruthy();
    // A task its server purged is not a failure: it reads "Expired".
    const purged = within(finished).getByRole('listitem', { name: 'purged-tool on everything' });
    expect(within(purged).getByText('Expired')).toBeTruthy();
    expect(within(purged).getByText('expired — no longer on the server')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Clear finished' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Finished tasks' })).toBeNull());
    expect(transport.calls.some((c) => c.method === 'tasks.clear')).toBe(true);
    expect(screen.getByRole('listitem', { name: 'elicitation on forms' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear finished' })).toHaveProperty('disabled', true);
  });

  it('says why the list could not be read, and tries again', async () => {
    let broken = true;
    mount([], { 'tasks.list': () => (broken ? fail('INTERNAL', 'registry unavailable') : ok([task('t1')])) });
    expect(await screen.findByText(/Could not read the tasks: registry unavailable/)).toBeTruthy();
    broken = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'simulate-research-query on everything' })).toBeTruthy();
  });
});

describe('<TasksView> in Chinese', () => {
  it('words the sections, the status, the progress and the age in the active language, the server’s words as they are', async () => {
    mount([task('t1', { statusMessage: 'Gathering sources', progress: { progress: 2, total: 5 } })], {
      // The Language setting, as the person picked it: the app follows it live.
      'settings.get': () =>
        ok({
          apiKey: { source: 'stored', hint: '…wxyz' },
          models: [{ id: 'claude-a', label: 'Claude A' }],
          defaultModel: 'claude-a',
          language: 'zh-CN',
        }),
    });
    const running = await screen.findByRole('list', { name: '运行中的任务' }, { timeout: 5_000 });
    const row = within(running).getByRole('listitem', { name: 'everything 上的 simulate-research-query' });
    expect(within(row).getByText('进行中')).toBeTruthy();
    expect(within(row).getByText('Gathering sources')).toBeTruthy();
    expect(within(row).getByText('2 / 5')).toBeTruthy();
    expect(within(row).getByText(/^开始于\d+ 分钟前$/)).toBeTruthy();
    expect(within(row).getByRole('button', { name: '取消任务' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '清除已结束' })).toBeTruthy();
  });
});

describe('task model', () => {
  it('puts ages and details in words', () => {
    const age = (ms: number) => translate('tasks.row.age', ageParts(ms));
    expect(age(2_000)).toBe('just now');
    expect(age(42_000)).toBe('42 s ago');
    expect(age(5 * 60_000)).toBe('5 min ago');
    expect(age(3 * 3_600_000)).toBe('3 h ago');
    expect(age(72 * 3_600_000)).toBe('3 d ago');
    expect(taskDetail({ status: 'failed', statusMessage: 'Boom', error: 'Boom' })).toBe('Boom');
    expect(taskDetail({ status: 'failed', statusMessage: 'Step 3', error: 'Boom' })).toBe('Step 3 · Boom');
    expect(taskDetail({ status: 'lost' })).toBe('Berth can no longer reach this task.');
    expect(taskDetail({ status: 'working' })).toBeUndefined();
    // server-everything keeps its last step's message once the task completed: not shown as what it does now.
    expect(taskDetail({ status: 'completed', statusMessage: 'Generating report...' })).toBe(
      'Last update: Generating report...',
    );
    expect(taskDetail({ status: 'working', statusMessage: 'Generating report...' })).toBe('Generating report...');
  });

  it('words its own sentences, chips and the subject in the active language, the server’s message as written', async () => {
    await activateLocale('zh-TW');
    expect(taskDetail({ status: 'lost' })).toBe('Berth 已無法存取此任務。');
    expect(taskDetail({ status: 'completed', statusMessage: 'Generating report...' })).toBe(
      '最後更新：Generating report...',
    );
    expect(translate(taskChip('lost', true).label)).toBe('已過期');
    expect(taskSubject({ kind: 'tool' })).toBe('工具呼叫');
    // Berth's own status words come with their code; the server's come without and stay as written.
    expect(
      taskDetail({
        status: 'cancelled',
        statusMessage: 'cancelled by you',
        statusWording: { code: 'task-errors.status-by-you', params: { by: 'cancel' } },
      }),
    ).toBe('已由你取消');
    expect(
      taskDetail({
        status: 'lost',
        statusMessage: "the server's process ended when Berth quit",
        statusWording: { code: 'task-errors.status-process-ended', params: {} },
      }),
    ).toBe('Berth 結束時伺服器處理程序已終止');
    expect(taskDetail({ status: 'cancelled', statusMessage: 'cancelled by you' })).toBe('cancelled by you');
    expect(progressText({ progress: 1200, total: 5000 })).toBe('1,200 / 5,000');
  });

  it("words Berth's status with a detail in Korean, the detail (the SDK's words) as written", async () => {
    await activateLocale('ko');
    const failed = taskStatusWords('task-errors.status-cancel-failed', { detail: 'socket hang up' });
    expect(taskDetail({ status: 'lost', ...failed })).toBe('Berth가 취소하지 못해(socket hang up) 추적을 멈췄습니다');
    const gone = taskStatusWords('task-errors.status-server-gone', { server: 'asker' });
    expect(taskDetail({ status: 'lost', ...gone })).toBe('서버 “asker”이(가) 제거되었습니다');
    await activateLocale('ja');
    expect(taskDetail({ status: 'lost', ...taskStatusWords('task-errors.status-expired', {}) })).toBe(
      '期限切れ — サーバーにはもうありません',
    );
  });
});
