// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerState } from '../../../shared/domain';
import type { SkillCatalog } from '../../../shared/domain/skills';
import { SKILLS_EXTENSION_ID } from '../../../shared/domain/skills-extension';
import { fail, ok } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { createFakeTransport, serverState } from '../../test-support/fake-transport';
import { preloadLazyChunks } from '../../test-support/preload-lazy-chunks';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';

// The composer's Skills button is there only while a ready server declares the skills extension;
// when those servers list no skill, the menu says which they are and why.

beforeAll(preloadLazyChunks);
beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

const withSkills = { extensions: { [SKILLS_EXTENSION_ID]: {} } };
const PLAIN = serverState('plain', { status: 'ready', readySince: 1, capabilities: { tools: {} } });
const DOCS_STOPPED = serverState('docs', { status: 'stopped' });

function mount(servers: ServerState[], catalog: SkillCatalog) {
  const transport = createFakeTransport({
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
    'skills.list': () => ok(catalog),
  });
  return renderAppWithBerth({ transport, prepare: (store) => store.getState().showView('chat') });
}

const skillsButton = () => screen.queryByRole('button', { name: 'Skills' });

describe('the composer’s Skills button', () => {
  it('is absent until a server declaring skills is ready, and goes when it stops', async () => {
    const { transport } = mount([PLAIN, DOCS_STOPPED], { skills: [], problems: [] });
    await screen.findByRole('textbox', { name: 'Message' });
    expect(skillsButton()).toBeNull();
    act(() =>
      transport.emit(
        'servers.changed',
        serverState('docs', { status: 'ready', readySince: 2, capabilities: withSkills }),
      ),
    );
    expect(skillsButton()).not.toBeNull();
    act(() => transport.emit('servers.changed', serverState('docs', { status: 'crashed' })));
    expect(skillsButton()).toBeNull();
    // Never asked for the catalog: the button's presence comes from the server states already here.
    expect(transport.calls.some((call) => call.method === 'skills.list')).toBe(false);
  });

  it('says which servers could offer skills and why none is listed', async () => {
    const ready = (name: string) => serverState(name, { status: 'ready', readySince: 1, capabilities: withSkills });
    mount([PLAIN, ready('docs'), ready('guides'), ready('strict')], {
      skills: [
        {
          server: 'strict',
          uri: 'skill://x/SKILL.md',
          name: 'x',
          qualifiedName: 'strict/x',
          description: '',
          files: [],
          totalBytes: 0,
          state: 'refused',
          problem: 'bad digest',
          sameNameOn: [],
        },
      ],
      problems: [{ server: 'guides', problem: 'skills/list timed out after 30 s' }],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Skills' }));
    const panel = await screen.findByRole('group', { name: 'Skills' });
    const empty = await within(panel).findByRole('status');
    expect(empty.textContent).toBe(
      'No skill to attach. docs lists none now; guides could not list its skills: skills/list timed out after 30 s; Berth refuses every skill strict lists (its Skills tab says why).',
    );
  });

  it('words a refused attach from its code, and re-words it when the language changes', async () => {
    const ready = serverState('docs', { status: 'ready', readySince: 1, capabilities: withSkills });
    const { transport } = mount([ready], {
      skills: [
        {
          server: 'docs',
          uri: 'skill://report-writing/SKILL.md',
          name: 'report-writing',
          qualifiedName: 'docs/report-writing',
          description: 'Writes reports',
          files: [],
          totalBytes: 0,
          state: 'available',
          sameNameOn: [],
        },
      ],
      problems: [],
    });
    transport.handlers['skills.attach'] = () =>
      fail('SERVER_ERROR', "skill 'docs/report-writing' lists no SKILL.md", undefined, {
        code: 'skills-errors.no-skill-md',
        params: { name: 'docs/report-writing' },
      });
    fireEvent.click(await screen.findByRole('button', { name: 'Skills' }));
    const panel = await screen.findByRole('group', { name: 'Skills' });
    fireEvent.click(await within(panel).findByRole('button', { name: /docs\/report-writing/ }));
    expect((await within(panel).findByRole('alert')).textContent).toBe('skill “docs/report-writing” lists no SKILL.md');
    await act(() => activateLocale('ko'));
    expect(within(screen.getByRole('group', { name: '스킬' })).getByRole('alert').textContent).toBe(
      '스킬 “docs/report-writing”에 SKILL.md가 없습니다.',
    );
  });
});
