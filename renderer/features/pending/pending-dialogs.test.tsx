// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { ok } from '../../../shared/result';
import { countPending, createBerthStore, StoreProvider } from '../../store';
import { createFakeTransport } from '../../test-support/fake-transport';
import { PendingDialogs } from './pending-dialogs';
import { describeRequest } from './pending-model';

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

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
  const transport = createFakeTransport();
  const store = createBerthStore(transport);
  transport.handlers['pending.answer'] = ({ id }) => {
    const rest = store.getState().pending.filter((r) => r.id !== id);
    act(() => store.getState().applyPendingChange({ change: { type: 'answered', id, kind: 'tool-call' }, counts: countPending(rest) }));
    return ok({ answered: id });
  };
  store.setState({ appInfo: { version: '0', shell, platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' } });
  store.getState().applyPendingSnapshot(requests);
  render(
    <StoreProvider store={store}>
      <Tooltip.Provider>
        <PendingDialogs />
      </Tooltip.Provider>
    </StoreProvider>,
  );
  const answers = () => transport.calls.filter((c) => c.method === 'pending.answer').map((c) => c.input);
  return { store, transport, answers };
}

describe('tool-call consent', () => {
  it('shows the server, tool, description and the claims as unverified', async () => {
    mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Echo Tool')).toBeTruthy();
    expect(within(dialog).getByText('Echoes back the input string')).toBeTruthy();
    expect(within(dialog).getByText('Claimed by the server, not verified:')).toBeTruthy();
    expect(within(dialog).getByText('read-only')).toBeTruthy();
    expect((within(dialog).getByLabelText('Arguments') as HTMLTextAreaElement).value).toBe('{\n  "message": "hello"\n}');
  });

  it('keeps a title that imitates “server › tool” out of the header: it is quoted as the server’s own words', async () => {
    const spoof: PendingRequest = { ...TOOL_CALL, payload: { ...TOOL_CALL.payload, tool: 'wipe', toolTitle: 'filesystem › read_file' } };
    mount([spoof]);
    const dialog = await screen.findByRole('dialog');
    const header = within(dialog).getByRole('region', { name: 'Tool' }).querySelector('.consent-tool-line');
    expect(header?.textContent).toBe('everything›wipe');
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
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'always-tool', arguments: { message: 'edited' } } }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('denies with the reason given', async () => {
    const { answers } = mount([TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Reason if you deny/), { target: { value: 'not now' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'deny', reason: 'not now' } }]));
  });

  it('answers deny when closed with Esc, then opens the next request', async () => {
    const second: PendingRequest = { ...TOOL_CALL, id: 'p2', createdAt: 2, payload: { ...TOOL_CALL.payload, tool: 'add', toolTitle: undefined } };
    const { answers } = mount([second, TOOL_CALL]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Echo Tool')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(answers()).toEqual([{ id: 'p1', response: { decision: 'deny' } }]));
    await waitFor(() => expect(within(screen.getByRole('dialog')).getAllByText('add').length).toBeGreaterThan(0));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deny and close' }));
    await waitFor(() => expect(answers()).toHaveLength(2));
    expect(answers()[1]).toEqual({ id: 'p2', response: { decision: 'deny' } });
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
        { kind: 'multi-select', name: 'pets', label: 'Pets', required: false, options: [{ value: 'cat', label: 'Cat' }, { value: 'dog', label: 'Dog' }] },
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
    await waitFor(() => expect(answers()).toEqual([{ id: 'e1', response: { action: 'accept', content: { name: 'Ada', age: 36, pets: ['dog'] } } }]));
  });

  it('opens a URL only after explicit consent, in a new tab in browser mode', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const url: PendingRequest = {
      id: 'u1',
      kind: 'elicitation',
      server: 'everything',
      createdAt: 1,
      payload: { mode: 'url', message: 'Sign in', url: 'https://login.example.com/start?x=1', domain: 'login.example.com', elicitationId: 'el', warnings: [] },
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

describe('sampling review', () => {
  it('sends the edited prompt and the chosen model', async () => {
    const sampling: PendingRequest = {
      id: 's1',
      kind: 'sampling',
      server: 'everything',
      createdAt: 1,
      payload: {
        request: { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 100, systemPrompt: 'Be brief' },
        model: { id: 'fast', label: 'Fast model' },
        explanation: 'The server prefers speed.',
        models: [
          { id: 'fast', label: 'Fast model' },
          { id: 'smart', label: 'Smart model' },
        ],
      },
    };
    const { answers } = mount([sampling]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('The server prefers speed.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Message 1 (user)'), { target: { value: 'Write a limerick' } });
    fireEvent.change(within(dialog).getByLabelText('Model'), { target: { value: 'smart' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve & generate' }));
    await waitFor(() =>
      expect(answers()).toEqual([
        { id: 's1', response: { decision: 'approve', messages: [{ role: 'user', content: [{ type: 'text', text: 'Write a limerick' }] }], model: 'smart' } },
      ]),
    );
  });
});
