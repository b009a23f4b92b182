// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import type { PendingRequest } from '../../../shared/domain/pending';
import type { SkillCatalog, SkillInfo } from '../../../shared/domain/skills';
import { ok } from '../../../shared/result';
import { countPending, createBerthStore, StoreProvider } from '../../store';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { createFakeTransport } from '../../test-support/fake-transport';
import { PendingDialogs } from '../pending/pending-dialogs';
import { ServerSkills } from './server-skills';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const SKILL: SkillInfo = {
  server: 'docs',
  uri: 'skill://report-writing/SKILL.md',
  name: 'report-writing',
  qualifiedName: 'docs/report-writing',
  description: 'How to write a weather report',
  files: [
    { uri: 'skill://report-writing/SKILL.md', path: 'SKILL.md', size: 207 },
    { uri: 'skill://report-writing/references/STYLE.md', path: 'references/STYLE.md', size: 49 },
  ],
  totalBytes: 256,
  state: 'changed',
  sameNameOn: ['mirror'],
};

const ASK: PendingRequest = {
  id: 'p1',
  kind: 'skill',
  server: 'docs',
  createdAt: 1,
  payload: {
    stage: 'load',
    skill: SKILL.qualifiedName,
    description: SKILL.description,
    uri: SKILL.uri,
    files: SKILL.files,
    totalBytes: 256,
    requestedBy: 'model',
    changed: true,
    sameNameOn: ['mirror'],
    crossReferences: [],
  },
};

function mountStore() {
  const transport = createFakeTransport();
  const store = createBerthStore(transport);
  return { transport, store };
}

describe('the skill approval dialog', () => {
  it('says the skill changed and who else has its name, and sends the yes', async () => {
    const { transport, store } = mountStore();
    transport.handlers['pending.answer'] = ({ id }) => {
      act(() =>
        store
          .getState()
          .applyPendingChange({ change: { type: 'answered', id, kind: 'skill' }, counts: countPending([]) }),
      );
      return ok({ answered: id });
    };
    store.getState().applyPendingSnapshot([ASK]);
    render(
      <StoreProvider store={store}>
        <Tooltip.Provider>
          <PendingDialogs />
        </Tooltip.Provider>
      </StoreProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Load the changed skill docs/report-writing?' });
    expect(within(dialog).getByText(/changed on the server since you allowed it/)).toBeTruthy();
    expect(dialog.textContent).toMatch(/mirror also offers a skill of this name/);
    expect(
      within(within(dialog).getByRole('list', { name: 'Files' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['SKILL.md 207 B', 'references/STYLE.md 49 B']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Load changed skill' }));
    expect(transport.calls.find((call) => call.method === 'pending.answer')?.input).toEqual({
      id: 'p1',
      response: { decision: 'allow' },
    });
    // No allowed-tools in this skill: nothing said about tools it expects.
    expect(within(dialog).queryByRole('note', { name: 'Tools this skill expects' })).toBeNull();
  });

  it('shows allowed-tools as the server wrote it, as text, and says it grants nothing', async () => {
    const { store } = mountStore();
    const hostile = '<img src=x onerror="alert(1)">';
    store.getState().applyPendingSnapshot([
      {
        ...ASK,
        payload: {
          ...ASK.payload,
          changed: false,
          sameNameOn: [],
          expectsTools: ['get_forecast', 'Bash(curl:*)', hostile],
        },
      },
    ]);
    render(
      <StoreProvider store={store}>
        <Tooltip.Provider>
          <PendingDialogs />
        </Tooltip.Provider>
      </StoreProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Load skill docs/report-writing?' });
    const note = within(dialog).getByRole('note', { name: 'Tools this skill expects' });
    expect(note.textContent).toBe(
      `This skill expects to use: get_forecast, Bash(curl:*), ${hostile}As the server wrote it: this grants nothing. Each tool call still asks for your consent.`,
    );
    expect([...note.querySelectorAll('code')].map((code) => code.textContent)).toEqual([
      'get_forecast',
      'Bash(curl:*)',
      hostile,
    ]);
    expect(dialog.querySelector('img')).toBeNull();
  });
});

describe("the server's Skills tab", () => {
  it('lists the skills of this server with their state, and follows skills.changed', async () => {
    const { transport, store } = mountStore();
    const catalog: SkillCatalog = {
      skills: [SKILL, { ...SKILL, server: 'mirror', qualifiedName: 'mirror/report-writing', sameNameOn: ['docs'] }],
      problems: [],
    };
    transport.handlers['skills.list'] = () => ok(catalog);
    const server = { name: 'docs', status: 'ready', tools: [], restartCount: 0 } as unknown as ServerState;
    render(
      <StoreProvider store={store}>
        <ServerSkills server={server} />
      </StoreProvider>,
    );
    const row = await screen.findByRole('listitem', { name: 'docs/report-writing' });
    expect(row.textContent).toContain('Changed since approved');
    expect(row.textContent).toContain('mirror also offers a skill named “report-writing”');
    expect(screen.queryByRole('listitem', { name: 'mirror/report-writing' })).toBeNull();
    act(() => transport.emit('skills.changed', { skills: [{ ...SKILL, state: 'approved' }], problems: [] }));
    expect((await screen.findByRole('listitem', { name: 'docs/report-writing' })).textContent).toContain('Approved');
  });
});
