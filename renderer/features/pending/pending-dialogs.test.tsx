// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending } from '../../store';
import { PendingDialogs } from './pending-dialogs';
import { describeRequest } from './pending-model';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const TOOL_CALL: PendingRequest = {
  id: 'p1',
  kind: 'tool-call',
  server: 'everything',
  createdAt: 1,
  payload: {
    server: 'everything',
    serverTrusted: false,
    tool: 'echo',
    toolTitle: 'Echo Tool',
    description: 'Echoes back the input string',
    annotations: { readOnlyHint: true },
    annotationsTrusted: false,
    arguments: { message: 'hello' },
  },
};

/** Mounts the dialogs with a fake host that accepts every answer and removes the request, as the real one does. */
function mount(requests: PendingRequest[], shell: 'browser' | 'electron' = 'browser') {
  const { store, transport } = renderWithBerth(<PendingDialogs />, {
    prepare: (store) => {
      store.setState({
        appInfo: { version: '0', shell, platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' },
      });
      store.getState().applyPendingSnapshot(requests);
    },
  });
  transport.handlers['pending.answer'] = ({ id }) => {
    const rest = store.getState().pending.filter((r) => r.id !== id);
    act(() =>
      store
        .getState()
        .applyPendingChange({ change: { type: 'answered', id, kind: 'tool-call' }, counts: countPending(rest) }),
    );
    return ok({ answered: id });
  };
  const answers = () => transport.calls.filter((c) => c.method === 'pending.answer').map((c) => c.input);
  return { store, transport, answers };
}

describe('tool-call consent', () => {
  it('reads in the active language, the server’s words and the arguments as written', async () => {
    await activateLocale('zh-CN');
    mount([TOOL_CALL, { ...TOOL_CALL, id: 'p2' }]);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('允许运行 echo？');
    expect(within(dialog).getByText('服务器自己的描述，未经验证：')).toBeTruthy();
    expect(within(dialog).getByText('Echoes back the input string')).toBeTruthy();
    expect(dialog.textContent).toContain('另有 1 个待处理');
    expect(within(dialog).getByLabelText('参数')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '允许一次' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '拒绝' })).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('参数'), { target: { value: '[1]' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('参数必须是 JSON 对象（{ … }），而不是列表');
  });

  it('shows the server, tool, description and the claims as unverified', async () => {
    mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Echo Tool')).toBeTruthy();
    expect(within(dialog).getByText('Echoes back the input string')).toBeTruthy();
    expect(within(dialog).getByText('Claimed by the server, not verified:')).toBeTruthy();
    expect(within(dialog).getByText('read-only')).toBeTruthy();
    expect((within(dialog).getByLabelText('Arguments') as HTMLTextAreaElement).value).toBe(
      '{\n  "message": "hello"\n}',
    );
  });

  it('marks a tool Berth renamed because the server lists another tool of its name first', async () => {
    mount([
      { ...TOOL_CALL, payload: { ...TOOL_CALL.payload, tool: 'search_2', listedName: 'search', toolTitle: undefined } },
    ]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('listed as search').getAttribute('title')).toBe(
      'The server lists an earlier tool with the same name, search: Berth calls this one search_2. Allowing it does not allow the other.',
    );
    cleanup();
    mount([TOOL_CALL]);
    expect(within(await screen.findByRole('dialog')).queryByText(/listed as/)).toBeNull();
  });

  it('says when the call comes from the app in a card, not from the model', async () => {
    mount([{ ...TOOL_CALL, toolUseId: 'tu1', payload: { ...TOOL_CALL.payload, requestedBy: 'app' } }]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Asked from the app in this card, not by the model.')).toBeTruthy();
    cleanup();
    mount([TOOL_CALL]);
    expect(within(await screen.findByRole('dialog')).queryByText(/from the app in this card/)).toBeNull();
  });

  it("an app's call from an open card speaks of the app and can be allowed while the card is open", async () => {
    const { answers } = mount([
      { ...TOOL_CALL, toolUseId: 'tu1', payload: { ...TOOL_CALL.payload, requestedBy: 'app', appCard: true } },
    ]);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.getAttribute('aria-labelledby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'Allow the app in this card to run echo?',
    );
    expect(dialog.textContent).toContain('Exactly what the app asked for');
    expect(dialog.textContent).toContain('(optional, told to the app)');
    expect(dialog.textContent).not.toMatch(/the model asked|told to the model/);
    expect(within(dialog).queryByRole('button', { name: 'Allow for this conversation' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Deny' }).getAttribute('title')).toContain(
      "this app's later calls to this tool",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow while the card is open' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'allow-app-card' } }]));
  });

  it('keeps a title that imitates “server › tool” out of the header: it is quoted as the server’s own words', async () => {
    const spoof: PendingRequest = {
      ...TOOL_CALL,
      payload: { ...TOOL_CALL.payload, tool: 'wipe', toolTitle: 'filesystem › read_file' },
    };
    mount([spoof]);
    const dialog = await screen.findByRole('dialog');
    const header = within(within(dialog).getByRole('region', { name: 'Tool' })).getByRole('heading', { level: 3 });
    expect(header.textContent).toBe('everything›wipe');
    const words = within(dialog).getByTestId('tool-server-words');
    expect(words.textContent).toContain('In the server’s own words, not verified:');
    expect(words.querySelector('q')?.textContent).toBe('filesystem › read_file');
    expect(describeRequest(spoof)).toBe('Run wipe');
  });

  it('refuses edited arguments that are not a JSON object, and sends valid edits', async () => {
    const { answers } = mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    const editor = within(dialog).getByLabelText('Arguments');
    fireEvent.change(editor, { target: { value: '["not", "an object"]' } });
    expect(within(dialog).getByRole('alert').textContent).toContain('must be a JSON object');
    expect((within(dialog).getByRole('button', { name: 'Allow once' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(editor, { target: { value: '{ "message": "edited" }' } });
    expect(within(dialog).getByText('edited')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Always allow this tool' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        { id: 'p1', response: { decision: 'always-tool', arguments: { message: 'edited' } } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('warns when edited arguments do not match the tool’s input schema, and still lets the person send them', async () => {
    const inputSchema = {
      type: 'object',
      properties: { message: { type: 'string' }, count: { type: 'number' }, mode: { enum: ['fast', 'slow'] } },
      required: ['message'],
      additionalProperties: false,
    };
    const { answers } = mount([{ ...TOOL_CALL, payload: { ...TOOL_CALL.payload, inputSchema } } as PendingRequest]);
    const dialog = await screen.findByRole('dialog');
    const editor = within(dialog).getByLabelText('Arguments');
    // The model's own arguments are not judged here.
    expect(within(dialog).queryByTestId('argument-schema-warning')).toBeNull();
    fireEvent.change(editor, { target: { value: '{ "count": "three", "mode": "medium", "colour": "red" }' } });
    const warning = within(dialog).getByTestId('argument-schema-warning');
    expect(warning.textContent).toContain('do not match what the tool says it takes');
    expect(
      within(warning)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'message: missing (required)',
      'count: expected a number, not a string',
      'mode: must be one of ["fast","slow"]',
      'colour: not an argument this tool takes',
    ]);
    // A fix clears the warning.
    fireEvent.change(editor, { target: { value: '{ "message": "hi", "count": 3 }' } });
    expect(within(dialog).queryByTestId('argument-schema-warning')).toBeNull();
    fireEvent.change(editor, { target: { value: '{ "message": 42 }' } });
    expect(within(dialog).getByTestId('argument-schema-warning').textContent).toContain(
      'message: expected a string, not a number',
    );
    const allow = within(dialog).getByRole('button', { name: 'Allow once' }) as HTMLButtonElement;
    expect(allow.disabled).toBe(false);
    fireEvent.click(allow);
    await waitFor(() =>
      expect(answers()).toEqual([{ id: 'p1', response: { decision: 'allow-once', arguments: { message: 42 } } }]),
    );
  });

  it('says so when the tool’s schema cannot be used to check edited arguments', async () => {
    const inputSchema = { $schema: 'https://example.com/not-a-json-schema-dialect', type: 'object' };
    mount([{ ...TOOL_CALL, payload: { ...TOOL_CALL.payload, inputSchema } } as PendingRequest]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Arguments'), { target: { value: '{ "message": "edited" }' } });
    expect(within(dialog).getByTestId('argument-schema-unchecked').textContent).toContain(
      'could not check the edited arguments',
    );
    expect((within(dialog).getByRole('button', { name: 'Allow once' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('denies with the reason given', async () => {
    const { answers } = mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Reason if you deny/), { target: { value: 'not now' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'deny', reason: 'not now' } }]));
  });

  it('Esc and the X mean “Later”: nothing is answered, the next request opens, and both stay in the tray', async () => {
    const second: PendingRequest = {
      ...TOOL_CALL,
      id: 'p2',
      createdAt: 2,
      payload: { ...TOOL_CALL.payload, tool: 'add', toolTitle: undefined },
    };
    const { answers, store } = mount([second, TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Echo Tool')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(within(screen.getByRole('dialog')).getAllByText('add').length).toBeGreaterThan(0));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close and answer later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers()).toEqual([]);
    expect(
      store
        .getState()
        .pending.map((request) => request.id)
        .sort(),
    ).toEqual(['p1', 'p2']);
    expect(store.getState().deferredPending).toEqual(['p1', 'p2']);
  });

  it('“Later” keeps the request waiting without answering it', async () => {
    const { answers, store } = mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Later' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(answers()).toEqual([]);
    expect(store.getState().pending).toHaveLength(1);
  });
});

describe('elicitation', () => {
  const form: PendingRequest = {
    id: 'e1',
    kind: 'elicitation',
    server: 'everything',
    createdAt: 1,
    payload: {
      mode: 'form',
      message: 'Tell us about you',
      fields: [
        { kind: 'string', name: 'name', label: 'Name', required: true },
        { kind: 'number', name: 'age', label: 'Age', required: false, integer: true, minimum: 0 },
        {
          kind: 'multi-select',
          name: 'pets',
          label: 'Pets',
          required: false,
          options: [
            { value: 'cat', label: 'Cat' },
            { value: 'dog', label: 'Dog' },
          ],
        },
      ],
    },
  };

  it('shows field errors before sending, then sends converted values', async () => {
    const { answers } = mount([form]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Age/), { target: { value: '-3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await within(dialog).findByText('Enter a value for Name: it is required')).toBeTruthy();
    expect(within(dialog).getByText('Enter a number of at least 0')).toBeTruthy();
    expect(answers()).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Ada' } });
    fireEvent.change(within(dialog).getByLabelText(/Age/), { target: { value: '36' } });
    fireEvent.click(within(dialog).getByLabelText('Dog'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        { id: 'e1', response: { action: 'accept', content: { name: 'Ada', age: 36, pets: ['dog'] } } },
      ]),
    );
  });

  it('words each field problem in the person’s language, and again after a live language switch', async () => {
    await activateLocale('zh-CN');
    mount([form]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Age/), { target: { value: '-3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '接受' }));
    expect(await within(dialog).findByText('请为 Name 输入一个值：此项为必填')).toBeTruthy();
    expect(within(dialog).getByText('请输入不小于 0 的数字')).toBeTruthy();
    await act(() => activateLocale('ko'));
    expect(within(dialog).getByText('Name의 값을 입력하세요. 필수 항목입니다')).toBeTruthy();
    expect(within(dialog).getByText('0 이상의 숫자를 입력하세요')).toBeTruthy();
  });

  it('says when the question belongs to a task, and which', async () => {
    const { store } = mount([{ ...form, taskId: 'task-1' }]);
    act(() =>
      store.getState().applyTasksChanged({
        changed: [
          {
            id: 'task-1',
            taskId: 's-1',
            server: 'everything',
            side: 'receiver',
            kind: 'elicitation',
            status: 'input_required',
            createdAt: 1,
            updatedAt: 1,
          },
        ],
        removed: [],
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/part of a task \(elicitation\)/);
  });

  it("offers “Cancel the task” for a running tool task's question: it cancels the task on its server, then closes the question", async () => {
    const { store, transport, answers } = mount([{ ...form, toolUseId: 'tu-1' }]);
    transport.handlers['tasks.cancel'] = () => ok({ status: 'cancelled' });
    const task = {
      id: 'berth-task-1',
      taskId: 's-1',
      server: 'everything',
      side: 'requester' as const,
      kind: 'tool' as const,
      tool: 'research',
      toolUseId: 'tu-1',
      status: 'working' as const,
      createdAt: 1,
      updatedAt: 1,
    };
    const dialog = await screen.findByRole('dialog');
    // A question of no task has only the form's own Cancel.
    expect(within(dialog).queryByRole('button', { name: 'Cancel the task' })).toBeNull();
    act(() => store.getState().applyTasksChanged({ changed: [{ ...task, waitingFor: 'e1' }], removed: [] }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Cancel the task' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'e1', response: { action: 'cancel' } }]));
    const calls = transport.calls.map((c) => c.method).filter((m) => m === 'tasks.cancel' || m === 'pending.answer');
    expect(calls).toEqual(['tasks.cancel', 'pending.answer']);
    expect(transport.calls.find((c) => c.method === 'tasks.cancel')?.input).toEqual({ id: 'berth-task-1' });
  });

  it('opens a URL only after explicit consent, in a new tab in browser mode', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const url: PendingRequest = {
      id: 'u1',
      kind: 'elicitation',
      server: 'everything',
      createdAt: 1,
      payload: {
        mode: 'url',
        message: 'Sign in',
        url: 'https://login.example.com/start?x=1',
        domain: 'login.example.com',
        elicitationId: 'el',
        warnings: [],
      },
    };
    const { answers } = mount([url]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('elicitation-domain').textContent).toBe('login.example.com');
    const openButton = within(dialog).getByRole('button', { name: 'Open in browser' }) as HTMLButtonElement;
    expect(openButton.disabled).toBe(true);
    fireEvent.click(within(dialog).getByLabelText(/I want to open login.example.com/));
    fireEvent.click(openButton);
    expect(open).toHaveBeenCalledWith('https://login.example.com/start?x=1', '_blank', 'noopener,noreferrer');
    await waitFor(() => expect(answers()).toEqual([{ id: 'u1', response: { action: 'accept' } }]));
    open.mockRestore();
  });
});

/** A stage-1 sampling request: the server asked for `requested` max tokens; Berth proposes `proposed`. */
function samplingRequest(requested: number, proposed: number, limitedBy?: 'cap' | 'budget'): PendingRequest {
  return {
    id: 's1',
    kind: 'sampling',
    server: 'everything',
    createdAt: 1,
    payload: {
      request: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }],
        maxTokens: requested,
        systemPrompt: 'Be brief',
      },
      model: { id: 'smart', label: 'Smart model' },
      explanation: 'The server prefers intelligence.',
      models: [
        { id: 'fast', label: 'Fast model' },
        { id: 'smart', label: 'Smart model' },
        { id: 'usual', label: 'Usual model' },
      ],
      defaultModel: { id: 'usual', label: 'Usual model' },
      tokens: {
        requested,
        proposed,
        ...(limitedBy !== undefined ? { limitedBy } : {}),
        limits: { maxTokens: 4_096, sessionBudget: 100_000 },
        used: 1_234,
      },
    },
  };
}

/** A stage-1 request over models of three providers, Berth having picked OpenAI's gpt-4o from the server's hint. */
function crossProviderRequest(): PendingRequest {
  const base = samplingRequest(100, 100);
  if (base.kind !== 'sampling') throw new Error('not a sampling request');
  return {
    ...base,
    payload: {
      ...base.payload,
      model: { id: 'openai:gpt-4o', label: 'gpt-4o', provider: 'OpenAI' },
      explanation: 'Matched the server’s hint “gpt-4o”.',
      models: [
        { id: 'claude-sonnet-5', label: 'Claude Sonnet 5', provider: 'Anthropic' },
        { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', provider: 'Anthropic' },
        { id: 'openai:gpt-4o', label: 'gpt-4o', provider: 'OpenAI' },
        { id: 'ollama:llama3.1:8b', label: 'llama3.1:8b', provider: 'Ollama' },
      ],
      defaultModel: { id: 'claude-sonnet-5', label: 'Claude Sonnet 5', provider: 'Anthropic' },
    },
  };
}

describe('sampling review across providers', () => {
  it("words the host's reason for the default model in the person's language", async () => {
    await activateLocale('ko');
    try {
      const base = samplingRequest(100, 100);
      if (base.kind !== 'sampling') throw new Error('not a sampling request');
      const request: PendingRequest = {
        ...base,
        payload: {
          ...base.payload,
          model: base.payload.defaultModel,
          explanation: 'No preferences from the server: your default model.',
          explanationMessage: { code: 'sampling-words.no-preferences', params: {} },
        },
      };
      mount([request]);
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByTestId('model-why').textContent).toBe(
        '서버가 선호 사항을 보내지 않았습니다. 기본 모델을 사용합니다.',
      );
    } finally {
      await activateLocale('en');
    }
  });

  it('words why the server’s hint chose the model in Japanese, and keeps that reason once the person switches', async () => {
    await activateLocale('ja');
    try {
      const base = crossProviderRequest();
      if (base.kind !== 'sampling') throw new Error('not a sampling request');
      const request: PendingRequest = {
        ...base,
        payload: { ...base.payload, explanationChoice: { kind: 'hint-only', reach: { via: 'name', hint: 'gpt-4o' } } },
      };
      mount([request]);
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByTestId('model-why').textContent).toBe('サーバーのヒント「gpt-4o」に一致しました。');
      fireEvent.change(within(dialog).getByRole('combobox'), { target: { value: 'ollama:llama3.1:8b' } });
      expect(within(dialog).getByTestId('model-why').textContent).toContain('サーバーのヒント「gpt-4o」に一致しました');
    } finally {
      await activateLocale('en');
    }
  });

  it('shows the chosen model with its provider and why, lists every model grouped by provider, and sends the switch', async () => {
    const { answers } = mount([crossProviderRequest()]);
    const dialog = await screen.findByRole('dialog');
    const select = within(dialog).getByLabelText('Model') as HTMLSelectElement;
    expect(select.value).toBe('openai:gpt-4o');
    expect(within(dialog).getByTestId('model-provider').textContent).toBe('from OpenAI');
    expect(within(dialog).getByTestId('model-why').textContent).toBe('Matched the server’s hint “gpt-4o”.');
    expect(select.getAttribute('aria-describedby')).toBe(within(dialog).getByTestId('model-why').id);
    const groups = [...select.querySelectorAll('optgroup')].map((group) => [
      group.label,
      [...group.querySelectorAll('option')].map((o) => o.textContent),
    ]);
    expect(groups).toEqual([
      ['Anthropic', ['Claude Sonnet 5', 'Claude Haiku 4.5']],
      ['OpenAI', ['gpt-4o']],
      ['Ollama', ['llama3.1:8b']],
    ]);

    fireEvent.change(select, { target: { value: 'ollama:llama3.1:8b' } });
    expect(within(dialog).getByTestId('model-provider').textContent).toBe('from Ollama');
    expect(within(dialog).getByTestId('model-why').textContent).toBe(
      'Your choice. Berth had picked gpt-4o (OpenAI): matched the server’s hint “gpt-4o”.',
    );
    fireEvent.click(within(dialog).getByLabelText(/Don’t ask again for “everything” this session/));
    expect(within(dialog).getByTestId('session-note').textContent).toContain(
      'with llama3.1:8b (Ollama), the model you picked',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve & generate' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        { id: 's1', response: { decision: 'approve', model: 'ollama:llama3.1:8b', allowForSession: true } },
      ]),
    );
  });

  it('the answer says which model of which provider wrote it, and the name the provider reported when it differs', async () => {
    const answer = (answeredBy: string): PendingRequest => ({
      id: 'a1',
      kind: 'sampling-answer',
      server: 'everything',
      createdAt: 1,
      payload: {
        request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100 },
        model: { id: 'openrouter:openai/gpt-4o', label: 'GPT-4o', provider: 'OpenRouter' },
        answeredBy,
        result: { content: { type: 'text', text: 'Hello' }, stopReason: 'endTurn' },
      },
    });
    mount([answer('openai/gpt-4o-2024-08-06')]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('answered-by').textContent).toBe('GPT-4o (OpenRouter)');
    expect(dialog.textContent).toContain(
      'GPT-4o (OpenRouter) (reported as openai/gpt-4o-2024-08-06) wrote this for everything',
    );
    cleanup();
    mount([answer('openai/gpt-4o')]);
    expect((await screen.findByRole('dialog')).textContent).toContain('GPT-4o (OpenRouter) wrote this for everything');
  });
});

describe('the sampling answer and the model’s reasoning', () => {
  const answer = (
    result: Extract<PendingRequest, { kind: 'sampling-answer' }>['payload']['result'],
  ): PendingRequest => ({
    id: 'a1',
    kind: 'sampling-answer',
    server: 'everything',
    createdAt: 1,
    payload: {
      request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 100 },
      model: { id: 'claude-a', label: 'Claude A', provider: 'Anthropic' },
      result,
    },
  });

  it('shows the thinking folded above the answer, opens it on demand, and counts its tokens', async () => {
    const { answers } = mount([
      answer({
        content: { type: 'text', text: 'A haiku.' },
        usage: { inputTokens: 12, outputTokens: 40, reasoningTokens: 30 },
        reasoning: { text: 'Five, seven, five: about the sea.', durationMs: 2_000 },
      }),
    ]);
    const dialog = await screen.findByRole('dialog');
    const toggle = within(dialog).getByRole('button', { name: /Thought for 2 s/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(dialog).queryByRole('region', { name: 'The model’s reasoning' })).toBeNull();
    fireEvent.click(toggle);
    expect(within(dialog).getByRole('region', { name: 'The model’s reasoning' }).textContent).toBe(
      'Five, seven, five: about the sea.',
    );
    expect(within(dialog).getByTestId('answer-usage').textContent).toBe(
      'It used 12 input + 40 output tokens, 30 of them reasoning (max 100), counted against this server’s session budget.',
    );
    // Approving sends the answer as it was: the reasoning is never part of it.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'a1', response: { decision: 'approve' } }]));
  });

  it('says when the provider hid the reasoning; shows nothing of it when there was none', async () => {
    mount([
      answer({ content: { type: 'text', text: 'A haiku.' }, reasoning: { text: '', redacted: true, durationMs: 0 } }),
    ]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: /hidden by the provider/ })).toBeTruthy();
    cleanup();
    mount([answer({ content: { type: 'text', text: 'A haiku.' }, usage: { inputTokens: 12, outputTokens: 10 } })]);
    const plain = await screen.findByRole('dialog');
    expect(within(plain).queryByRole('button', { name: /Thought for/ })).toBeNull();
    expect(within(plain).getByTestId('answer-usage').textContent).toBe(
      'It used 12 input + 10 output tokens (max 100), counted against this server’s session budget.',
    );
  });
});

describe('sampling review', () => {
  it('sends the edited prompt and the chosen model', async () => {
    const { answers } = mount([samplingRequest(100, 100)]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('The server prefers intelligence.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Message 1 (user)'), { target: { value: 'Write a limerick' } });
    fireEvent.change(within(dialog).getByLabelText('Model'), { target: { value: 'fast' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve & generate' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        {
          id: 's1',
          response: {
            decision: 'approve',
            messages: [{ role: 'user', content: [{ type: 'text', text: 'Write a limerick' }] }],
            model: 'fast',
          },
        },
      ]),
    );
  });

  it('shows the requested and the capped max tokens and the budget, and sends a max tokens the person typed', async () => {
    const { answers } = mount([samplingRequest(100_000, 4_096, 'cap')]);
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Max tokens') as HTMLInputElement;
    expect(field.value).toBe('4096');
    expect(within(dialog).getByTestId('max-tokens-note').textContent).toBe(
      'The server asked for 100,000; capped at 4,096, this server’s limit per request (change it in its Overview).',
    );
    expect(within(dialog).getByTestId('review-budget').textContent).toContain(
      '1,234 of 100,000 tokens used; 98,766 left',
    );

    const approve = within(dialog).getByRole('button', { name: 'Approve & generate' }) as HTMLButtonElement;
    fireEvent.change(field, { target: { value: '200000' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('At most the 100,000 the server asked for.');
    expect(approve.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '2.5' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter a whole number of tokens, at least 1.');
    fireEvent.change(field, { target: { value: '800' } });
    expect(approve.disabled).toBe(false);
    fireEvent.click(approve);
    await waitFor(() => expect(answers()).toEqual([{ id: 's1', response: { decision: 'approve', maxTokens: 800 } }]));
  });

  it('the temperature is editable: a bad value blocks approval, a new one is sent, clearing it sends the model default', async () => {
    const base = samplingRequest(100, 100);
    if (base.kind !== 'sampling') throw new Error('not a sampling request');
    const { answers } = mount([
      { ...base, payload: { ...base.payload, request: { ...base.payload.request, temperature: 0.7 } } },
    ]);
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('Temperature') as HTMLInputElement;
    expect(field.value).toBe('0.7');
    const approve = within(dialog).getByRole('button', { name: 'Approve & generate' }) as HTMLButtonElement;
    fireEvent.change(field, { target: { value: '3' } });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Enter a number from 0 to 2, or leave it empty for the model’s default.',
    );
    expect(approve.disabled).toBe(true);
    fireEvent.change(field, { target: { value: '' } });
    expect(approve.disabled).toBe(false);
    fireEvent.click(approve);
    await waitFor(() =>
      expect(answers()).toEqual([{ id: 's1', response: { decision: 'approve', temperature: null } }]),
    );
  });

  it('says that "don\'t ask again" answers later requests with the default model, or the one the person picked', async () => {
    const { answers } = mount([samplingRequest(100, 100)]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('session-note')).toBeNull();
    fireEvent.click(within(dialog).getByLabelText(/Don’t ask again for “everything” this session/));
    const note = within(dialog).getByTestId('session-note');
    expect(note.textContent).toContain('with Usual model, your default model (not the server’s preference)');
    expect(note.textContent).toContain('at most 4,096 max tokens each, until its budget of 100,000 tokens is spent');
    fireEvent.change(within(dialog).getByLabelText('Model'), { target: { value: 'fast' } });
    expect(within(dialog).getByTestId('session-note').textContent).toContain('with Fast model, the model you picked');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve & generate' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        { id: 's1', response: { decision: 'approve', model: 'fast', allowForSession: true } },
      ]),
    );
  });
});

describe('a server flooding sampling requests', () => {
  /** `count` stage-1 requests of `server`, from `first` on in the queue. */
  function fromServer(server: string, count: number, first: number): PendingRequest[] {
    const base = samplingRequest(100, 100);
    return Array.from({ length: count }, (_, index) => ({
      ...base,
      id: `${server}-${index + 1}`,
      server,
      createdAt: first + index,
    }));
  }

  it('shows how many more wait and declines them all in one action, refusing the server for the session if asked', async () => {
    const { store, transport } = mount([...fromServer('flood', 3, 1), ...fromServer('calm', 1, 10)]);
    transport.handlers['sampling.declineAll'] = ({ server }) => {
      const rest = store.getState().pending.filter((r) => r.server !== server);
      act(() => store.getState().applyPendingSnapshot(rest));
      return ok({ declined: 3, policies: { [server as string]: 'refuse-session' } });
    };
    const dialog = await screen.findByRole('dialog');
    const bar = within(dialog).getByRole('group', { name: '2 more requests from “flood” are waiting after this one.' });
    fireEvent.click(within(bar).getByLabelText('Also refuse its sampling for the rest of this session'));
    fireEvent.click(within(bar).getByRole('button', { name: 'Decline all 3 from “flood”' }));

    await waitFor(() => expect(store.getState().pending.map((r) => r.id)).toEqual(['calm-1']));
    expect(transport.calls.filter((c) => c.method === 'sampling.declineAll').map((c) => c.input)).toEqual([
      { server: 'flood', refuseForSession: true },
    ]);
    expect(store.getState().samplingPolicies).toEqual({ flood: 'refuse-session' });
    // The next request is the only one of its server: no bar.
    await waitFor(() => expect(within(screen.getByRole('dialog')).getAllByText('calm').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('sampling-flood')).toBeNull();
  });

  it('a single request has no bar; a refused "Decline all" says why and keeps the queue', async () => {
    const { transport } = mount(fromServer('flood', 2, 1));
    transport.handlers['sampling.declineAll'] = () => ({ ok: false, code: 'INTERNAL', message: 'host went away' });
    const bar = await screen.findByTestId('sampling-flood');
    expect(within(bar).getByText('1 more request')).toBeTruthy();
    fireEvent.click(within(bar).getByRole('button', { name: 'Decline all 2 from “flood”' }));
    expect((await within(bar).findByRole('alert')).textContent).toBe('Could not decline them: host went away');
    expect(screen.getByRole('dialog')).toBeTruthy();
    cleanup();
    mount(fromServer('flood', 1, 1));
    await screen.findByRole('dialog');
    expect(screen.queryByTestId('sampling-flood')).toBeNull();
  });
});
