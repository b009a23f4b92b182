// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import { fail, ok } from '../../../shared/result';
import { composerDraft } from '../../store';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { serverState, type FakeHandlers } from '../../test-support/fake-transport';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { filterMentions, mentionToken, removeMention } from './mention-model';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const DOCS = serverState('docs', { status: 'ready', readySince: 1, capabilities: { resources: {} } });
const NOTES = serverState('notes', { status: 'ready', readySince: 1, capabilities: { resources: {} } });
// Stopped: what it declared went with its connection.
const STOPPED = serverState('off', { status: 'stopped' });

function mount(handlers: FakeHandlers, servers: ServerState[] = [DOCS, NOTES, STOPPED]) {
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok(servers),
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
      'prompts.list': () => ok({ servers: [], problems: [], prompts: [] }),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Notes', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 0 }]),
      'chat.get': () =>
        ok({
          id: 'c1',
          title: 'Notes',
          createdAt: 1,
          updatedAt: 2,
          model: 'claude-a',
          messages: [],
          disabledServers: [],
          disabledTools: [],
        }),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
      'resources.list': ({ server, cursor }) => {
        if (server === 'docs') {
          return cursor === undefined
            ? ok({
                resources: [{ uri: 'docs://readme', name: 'readme', title: 'Read me', mimeType: 'text/markdown' }],
                nextCursor: 'p2',
              })
            : ok({ resources: [{ uri: 'docs://changelog', name: 'changelog', description: 'What changed' }] });
        }
        return ok({ resources: [{ uri: 'notes://todo', name: 'todo' }] });
      },
      'resources.read': ({ uri }) =>
        ok({ contents: [{ kind: 'text' as const, uri, mimeType: 'text/markdown', text: `contents of ${uri}` }] }),
      ...handlers,
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

async function type(text: string): Promise<HTMLTextAreaElement> {
  const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
  fireEvent.change(box, { target: { value: text } });
  return box;
}

const optionTexts = (listbox: HTMLElement) =>
  within(listbox)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('@ in the composer', () => {
  it('lists every page of resources of ready servers only, filters as the person types, and moves by keyboard', async () => {
    const { transport } = mount({});
    const box = await type('Summarize @');
    const listbox = await screen.findByRole('listbox', { name: 'Resources' });
    await waitFor(() => expect(optionTexts(listbox)).toHaveLength(3));
    expect(optionTexts(listbox)).toEqual([
      expect.stringContaining('@Read me'),
      expect.stringContaining('@changelog'),
      expect.stringContaining('@todo'),
    ]);
    // The stopped server is never asked.
    expect(
      new Set(
        transport.calls
          .filter((call) => call.method === 'resources.list')
          .map((call) => (call.input as { server: string }).server),
      ),
    ).toEqual(new Set(['docs', 'notes']));
    expect(box.getAttribute('role')).toBe('combobox');
    expect(box.getAttribute('aria-controls')).toBe(listbox.id);
    const options = within(listbox).getAllByRole('option');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[2]?.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');

    fireEvent.change(box, { target: { value: 'Summarize @chan' } });
    expect(optionTexts(screen.getByRole('listbox', { name: 'Resources' }))).toEqual([
      expect.stringContaining('@changelog'),
    ]);
    fireEvent.change(box, { target: { value: 'Summarize @zzz' } });
    expect(screen.getByRole('group', { name: 'Resources' }).textContent).toContain('No resource matches “zzz”');

    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Resources' })).toBeNull();
    expect(box.getAttribute('role')).toBeNull();
    // A finished word (a space after it) is ordinary text again, as is an e-mail address.
    fireEvent.change(box, { target: { value: 'write to a@b.c' } });
    expect(screen.queryByRole('group', { name: 'Resources' })).toBeNull();
  });

  it('attaches the chosen resource as the resource browser does, and takes the @query out of the text', async () => {
    const { store, transport } = mount({});
    const box = await type('Summarize @tod');
    await screen.findByRole('option', { name: /@todo/ });
    fireEvent.keyDown(box, { key: 'Enter' });
    const chips = await screen.findByRole('list', { name: 'Attachments' });
    expect(chips.textContent).toContain('todo');
    expect(chips.textContent).toContain('notes');
    expect(box.value).toBe('Summarize ');
    expect(transport.calls.find((call) => call.method === 'resources.read')?.input).toEqual({
      server: 'notes',
      uri: 'notes://todo',
    });
    expect(composerDraft(store.getState().composerDrafts, 'c1').attachments).toEqual([
      {
        server: 'notes',
        label: 'todo',
        content: {
          type: 'resource',
          resource: { uri: 'notes://todo', mimeType: 'text/markdown', text: 'contents of notes://todo' },
        },
      },
    ]);
    // Enter chose the resource; it did not send.
    expect(transport.calls.some((call) => call.method === 'chat.send')).toBe(false);
  });

  it('attaches with the mouse too, and says why when the resource cannot be read', async () => {
    mount({ 'resources.read': () => fail('SERVER_ERROR', 'Resource not found') });
    await type('@');
    fireEvent.mouseDown(await screen.findByRole('option', { name: /@Read me/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not attach Read me: Resource not found');
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull();
  });

  it('offers resource templates too: fill in the variables, then Attach reads the URI they make', async () => {
    const { store, transport } = mount({
      'resources.templates': ({ server }) =>
        server === 'docs'
          ? ok({ resourceTemplates: [{ uriTemplate: 'docs://page/{id}', name: 'page', title: 'Page by number' }] })
          : ok({ resourceTemplates: [] }),
    });
    const box = await type('See @page');
    const option = await screen.findByRole('option', { name: /@Page by number/ });
    expect(option.textContent).toContain('template');
    fireEvent.mouseDown(option);
    const form = await screen.findByRole('form', { name: 'Fill in Page by number' });
    expect(box.value).toBe('See ');
    expect(screen.queryByRole('listbox', { name: 'Resources' })).toBeNull();
    const field = within(form).getByLabelText('id');
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.change(field, { target: { value: '7' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Attach' }));
    await waitFor(() =>
      expect(composerDraft(store.getState().composerDrafts, 'c1').attachments.map((a) => a.label)).toEqual([
        'docs://page/7',
      ]),
    );
    expect(transport.calls.filter((call) => call.method === 'resources.read').map((call) => call.input)).toEqual([
      { server: 'docs', uri: 'docs://page/7' },
    ]);
    expect(screen.queryByRole('form', { name: 'Fill in Page by number' })).toBeNull();

    // Esc in the form goes back to the message box without attaching.
    fireEvent.change(box, { target: { value: 'See @page' } });
    fireEvent.mouseDown(await screen.findByRole('option', { name: /@Page by number/ }));
    fireEvent.keyDown(
      within(await screen.findByRole('form', { name: 'Fill in Page by number' })).getByLabelText('id'),
      { key: 'Escape' },
    );
    expect(screen.queryByRole('form', { name: 'Fill in Page by number' })).toBeNull();
    expect(transport.calls.filter((call) => call.method === 'resources.read')).toHaveLength(1);
  });

  it('says what to do when no ready server offers resources', async () => {
    mount({}, [STOPPED]);
    await type('@');
    expect((await screen.findByRole('group', { name: 'Resources' })).textContent).toContain(
      'No ready server offers resources',
    );
  });
});

describe('the @ search', () => {
  it('finds the token at the caret, after a space or at the start', () => {
    expect(mentionToken('@re', 3)).toEqual({ query: 're', start: 0, end: 3 });
    expect(mentionToken('see @re and', 7)).toEqual({ query: 're', start: 4, end: 7 });
    expect(mentionToken('see @re and', 11)).toBeUndefined();
    expect(mentionToken('me@example', 10)).toBeUndefined();
    expect(removeMention('see @re and', { query: 're', start: 4, end: 7 })).toEqual({ text: 'see and', caret: 4 });
  });

  it('ranks name matches above URI and description matches', () => {
    const resources = [
      { server: 's', uri: 'x://readme-notes', name: 'other', description: '' },
      { server: 's', uri: 'x://1', name: 'readme' },
      { server: 's', uri: 'x://2', name: 'z', description: 'the readme' },
    ];
    expect(filterMentions(resources, 'readme').map((r) => r.uri)).toEqual(['x://1', 'x://readme-notes', 'x://2']);
  });
});
