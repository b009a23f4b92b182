// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { PendingDialogs } from './pending-dialogs';
import { PendingTray } from './pending-tray';
import { renderWithBerth } from '../../test-support/render-with-berth';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
afterEach(cleanup);

// A tool name that, shown raw, reads "wipe_all ... Allow once" backwards and breaks onto a new line.
const RLO = '\u202E';
const HOSTILE = `wipe_all${RLO}ecno wollA\nread_file`;
const SHOWN = 'wipe_all\\u202Eecno wollA\\u000Aread_file';

/** Raw characters a name must never bring into the page: bidi controls, line breaks, C0/C1. */
// eslint-disable-next-line no-control-regex
const RAW_HIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

function mount(requests: PendingRequest[], withTray = false) {
  const { store } = renderWithBerth(
    <>
      {withTray ? <PendingTray /> : null}
      <PendingDialogs />
    </>,
    {
      prepare: (store) => {
        store.setState({
          appInfo: {
            version: '0',
            shell: 'browser',
            platform: 'linux',
            configPath: '/c',
            configDir: '/c',
            logsDir: '/l',
          },
        });
        store.getState().applyPendingSnapshot(requests);
        if (withTray) for (const request of requests) store.getState().deferPending(request.id);
      },
    },
  );
  return store;
}

const toolCall = (tool: string, toolTitle?: string): PendingRequest => ({
  id: 't1',
  kind: 'tool-call',
  server: 'files',
  createdAt: 1,
  payload: {
    server: 'files',
    serverTrusted: false,
    tool,
    ...(toolTitle === undefined ? {} : { toolTitle }),
    annotationsTrusted: false,
    arguments: {},
  },
});

/** The names of every button in `root`, as assistive technology reads them. */
const buttonNames = (root: HTMLElement): string[] =>
  within(root)
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label') ?? button.textContent ?? '');

describe('server-chosen names in decisions', () => {
  it('tool consent: the name is isolated and its bidi control and line break show as escapes; the allow button keeps its own name', async () => {
    mount([toolCall(HOSTILE, `Harmless${RLO}txt.exe`)]);
    const dialog = await screen.findByRole('dialog');
    // The title (the dialog's accessible name) and the header line show the escapes as text.
    expect(dialog.textContent).toContain(`Allow ${SHOWN} to run?`);
    const header = within(within(dialog).getByRole('region', { name: 'Tool' })).getByRole('heading', { level: 3 });
    expect(header.textContent).toBe(`files›${SHOWN}`);
    expect(within(dialog).getByTestId('tool-server-words').querySelector('q')?.textContent).toBe(
      'Harmless\\u202Etxt.exe',
    );
    // Each name sits in its own <bdi>, so even a right-to-left name cannot move the words around it.
    const isolated = [...dialog.querySelectorAll('bdi')].map((element) => element.textContent);
    expect(isolated).toEqual(expect.arrayContaining([SHOWN, 'files', 'Harmless\\u202Etxt.exe']));
    expect(dialog.textContent).not.toMatch(RAW_HIDDEN);
    // The allow button's accessible name is Berth's words only.
    expect(within(dialog).getByRole('button', { name: 'Allow once' })).toBeTruthy();
    for (const name of buttonNames(dialog)) expect(name).not.toMatch(RAW_HIDDEN);
  });

  it('elicitation: a server name or domain with a bidi control is shown escaped in the title and the consent line', async () => {
    mount([
      {
        id: 'e1',
        kind: 'elicitation',
        server: `forms${RLO}x`,
        createdAt: 1,
        payload: {
          mode: 'url',
          message: 'Sign in',
          url: 'https://example.com/login',
          domain: `example.com${RLO}moc.elgoog`,
          elicitationId: 'el1',
          warnings: [],
        },
      },
    ]);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('“forms\\u202Ex” wants you to open a web page');
    expect(within(dialog).getByTestId('elicitation-domain').textContent).toBe('example.com\\u202Emoc.elgoog');
    expect(
      within(dialog).getByRole('checkbox', { name: /I want to open example\.com\\u202Emoc\.elgoog/ }),
    ).toBeTruthy();
    expect(dialog.textContent).not.toMatch(RAW_HIDDEN);
  });

  it('skill approval: the skill, the servers and tools it refers to are shown escaped', async () => {
    mount([
      {
        id: 's1',
        kind: 'skill',
        server: 'docs',
        createdAt: 1,
        payload: {
          stage: 'cross-server',
          skill: `docs/notes${RLO}gnp.exe`,
          description: 'Notes',
          uri: 'skill://notes/SKILL.md',
          files: [],
          totalBytes: 0,
          requestedBy: 'model',
          changed: false,
          sameNameOn: [],
          crossReferences: [{ server: 'archive', tools: [HOSTILE], roots: [] }],
        },
      },
    ]);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Skill docs/notes\\u202Egnp.exe refers to other servers');
    expect(within(dialog).getByRole('list', { name: 'Other servers it refers to' }).textContent).toContain(
      `tools ${SHOWN}`,
    );
    expect(dialog.textContent).not.toMatch(RAW_HIDDEN);
    for (const name of buttonNames(dialog)) expect(name).not.toMatch(RAW_HIDDEN);
  });

  it('tray: the waiting request reads with the escape, and its button cannot be renamed by the tool', async () => {
    mount([toolCall(HOSTILE)], true);
    fireEvent.click(screen.getByTestId('pending-tray'));
    const tray = await screen.findByRole('list', { name: 'Waiting requests' });
    const item = within(tray).getByRole('button');
    expect(item.textContent).toContain(`Run ${SHOWN}`);
    expect(item.textContent).not.toMatch(RAW_HIDDEN);
  });
});
