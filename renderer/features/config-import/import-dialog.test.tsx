// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ForeignLocation, ImportOutcome, ImportPreview } from '../../../shared/contract/config-import';
import { ok } from '../../../shared/result';
import { createFakeTransport } from '../../test-support/fake-transport';
import { ImportDialog } from './import-dialog';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';
import { configImportError } from '../../../shared/domain/config-import-errors';
import type { CodedText } from '../../../shared/domain/host-wording';

beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= () => undefined;
});
afterEach(cleanup);

const preview: ImportPreview = {
  format: 'vscode',
  path: '/home/ada/.config/Code/User/mcp.json',
  servers: [
    {
      sourceName: 'github',
      name: 'github',
      kind: 'stdio',
      command: 'docker',
      args: ['run'],
      env: { TOKEN: '${input:token}' },
      secretEnvKeys: ['TOKEN'],
      requiredInputs: ['token'],
      usesWorkspaceFolder: false,
      warnings: [],
    },
    {
      sourceName: 'memory',
      name: 'memory 2',
      kind: 'stdio',
      command: 'npx',
      args: [],
      secretEnvKeys: [],
      requiredInputs: [],
      usesWorkspaceFolder: false,
      warnings: [],
      duplicateOf: {
        name: 'memory',
        reason: 'same-name',
        message: 'Berth already has a server named "memory"',
        hostMessage: { code: 'config-import-errors.duplicate-name', params: { name: 'memory' } },
      },
    },
    {
      sourceName: 'remote',
      name: 'remote',
      kind: 'remote',
      url: 'https://example.com/mcp',
      unsupported: 'Remote servers (url) cannot be imported yet',
      secretEnvKeys: [],
      requiredInputs: [],
      usesWorkspaceFolder: false,
      warnings: [],
    },
  ],
  inputs: [{ id: 'token', type: 'promptString', description: 'GitHub token', password: true, hasDefault: false }],
  problems: [],
};

function mount(locations: ForeignLocation[], outcome: ImportOutcome, shown: ImportPreview = preview) {
  const transport = createFakeTransport({
    'configImport.locations': () => ok({ locations }),
    'configImport.preview': () => ok(shown),
    'configImport.apply': () => ok(outcome),
  });
  const { store } = renderWithBerth(<ImportDialog />, { transport });
  store.getState().openInteropDialog('import');
  return { store, transport };
}

const vscode: ForeignLocation = {
  id: 'vscode-user',
  label: 'VS Code (user)',
  format: 'vscode',
  path: preview.path!,
  exists: true,
};
const cursor: ForeignLocation = {
  id: 'cursor',
  label: 'Cursor',
  format: 'cursor',
  path: '/home/ada/.cursor/mcp.json',
  exists: false,
};

describe('import dialog', () => {
  it('explains what to do when no file was found', async () => {
    mount([cursor], { imported: true, added: [] });
    expect(await screen.findByText(/No Claude Desktop, Cursor or VS Code config was found/)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Cursor/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Contents' })).toBeTruthy();
  });

  it('speaks Traditional Chinese when that is the language, the file’s label and the code names left as they are', async () => {
    await act(() => activateLocale('zh-TW'));
    mount([cursor], { imported: true, added: [] });
    expect(await screen.findByRole('heading', { name: '匯入伺服器' })).toBeTruthy();
    const empty = await screen.findByRole('status');
    expect(empty.textContent).toBe(
      '在下列位置找不到 Claude Desktop、Cursor 或 VS Code 的設定。你可以在下方貼上設定檔的內容，或在專案資料夾中尋找它的 .mcp.json 或 .vscode/mcp.json。',
    );
    expect(within(empty).getByText('.vscode/mcp.json').tagName).toBe('CODE');
    expect(within(screen.getByRole('button', { name: /Cursor/ })).getByText('找不到')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '預覽' }));
    expect(await screen.findByText('請先貼上設定檔的內容')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: /專案資料夾/ })).toBeTruthy();
  });

  it('words the preview in Korean: the rows, the count on Import, the duplicate note from its code, the server names as they are', async () => {
    await act(() => activateLocale('ko'));
    mount([vscode, cursor], { imported: true, added: ['github'] });
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    expect(await screen.findByRole('checkbox', { name: 'github 가져오기' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Berth에서 쓸 이름' })).toBeTruthy();
    expect(screen.getByRole('row', { name: 'memory이(가) 실행하는 내용' })).toBeTruthy();
    expect(screen.getByText('Berth에 이미 “memory” 서버가 있습니다.')).toBeTruthy();
    expect(screen.getByText('비밀 값으로 저장: TOKEN')).toBeTruthy();
    expect(screen.getByRole('button', { name: '서버 1개 가져오기' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'memory 가져오기' }));
    expect(screen.getByRole('button', { name: '서버 2개 가져오기' })).toBeTruthy();
  });

  it('previews a found file: duplicates unchecked, remote disabled with its reason, password masked', async () => {
    mount([vscode, cursor], { imported: true, added: ['github'] });
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    const github = (await screen.findByRole('checkbox', { name: 'Import github' })) as HTMLInputElement;
    const memory = screen.getByRole('checkbox', { name: 'Import memory' }) as HTMLInputElement;
    const remote = screen.getByRole('checkbox', { name: 'Import remote' }) as HTMLInputElement;
    expect([github.checked, memory.checked, remote.checked, remote.disabled]).toEqual([true, false, false, true]);
    // A candidate's row, not the row under it that says what it runs.
    const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^(?!What ).*${name}`) });
    expect(within(rowOf('memory')).getByText('Duplicate')).toBeTruthy();
    expect(within(rowOf('remote')).getByText(/cannot be imported yet/)).toBeTruthy();
    expect(screen.getByRole('row', { name: 'What memory runs' })).toBeTruthy();
    expect((screen.getByLabelText('GitHub token') as HTMLInputElement).type).toBe('password');
    expect(screen.getByRole('button', { name: 'Import 1 server' })).toBeTruthy();
  });

  it('shows what each server runs in full, with what to check before turning it on', async () => {
    const hooked: ImportPreview = {
      format: 'claude-code',
      path: '/work/app/.mcp.json',
      workspaceFolder: '/work/app',
      servers: [
        {
          ...preview.servers[1]!,
          sourceName: 'tools',
          name: 'tools',
          duplicateOf: undefined,
          command: 'node',
          resolvedCommand: '/work/app/bin/node',
          args: ['server.js', '--root', '/a very long/path/that is not cut off'],
          env: { PATH: './bin:/usr/bin', NODE_OPTIONS: '--require ./hook.js', API_KEY: '••••••••' },
          warnings: [
            {
              kind: 'env',
              key: 'NODE_OPTIONS',
              message: 'Sets NODE_OPTIONS, which can make Node.js load any file first (--require, --import)',
            },
            {
              kind: 'command',
              message:
                "The command resolves to /work/app/bin/node, inside the imported project: the project's files decide what runs",
            },
          ],
        },
      ],
      inputs: [],
      problems: [],
    };
    mount([vscode], { imported: true, added: ['tools'] }, hooked);
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    await screen.findByRole('checkbox', { name: 'Import tools' });
    expect(screen.getByText('turned off').closest('p')?.textContent).toMatch(/^Imported servers are added turned off./);
    expect(screen.getByText('/work/app/bin/node')).toBeTruthy();
    expect(screen.getByText("node server.js --root '/a very long/path/that is not cut off'")).toBeTruthy();
    expect(screen.getByText('NODE_OPTIONS=--require ./hook.js').className).toContain('flagged');
    expect(screen.getByText('API_KEY=••••••••').className).not.toContain('flagged');
    const checks = within(screen.getByRole('list', { name: 'What to check in tools' })).getAllByRole('listitem');
    expect(checks.map((item) => item.textContent)).toEqual(
      hooked.servers[0]!.warnings.map((warning) => warning.message),
    );
    expect(screen.getByText('Check first')).toBeTruthy();
  });

  it('keeps Import disabled until each checked server’s flagged items are confirmed, then sends their keys', async () => {
    const flagged: ImportPreview = {
      ...preview,
      servers: [
        {
          ...preview.servers[0]!,
          env: {},
          requiredInputs: [],
          secretEnvKeys: [],
          args: ['run', '--privileged', 'img'],
          warnings: [
            {
              kind: 'env',
              key: 'BASH_ENV',
              message: 'Sets BASH_ENV, which names a file every non-interactive bash runs first',
              confirm: true,
            },
            {
              kind: 'docker',
              key: 'docker:--privileged',
              message: 'Docker option --privileged gives the container every device',
              confirm: true,
            },
          ],
        },
      ],
      inputs: [],
    };
    const { transport } = mount([vscode], { imported: true, added: ['github'] }, flagged);
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    const importButton = (await screen.findByRole('button', { name: 'Import 1 server' })) as HTMLButtonElement;
    expect(importButton.disabled).toBe(true);
    fireEvent.click(
      screen.getByRole('checkbox', { name: /I understand that BASH_ENV, --privileged let this server run code/ }),
    );
    expect(importButton.disabled).toBe(false);
    fireEvent.click(importButton);
    await waitFor(() => expect(transport.calls.some((call) => call.method === 'configImport.apply')).toBe(true));
    expect(transport.calls.find((call) => call.method === 'configImport.apply')?.input).toMatchObject({
      servers: [{ sourceName: 'github', name: 'github', confirmed: ['BASH_ENV', 'docker:--privileged'] }],
    });
  });

  it('moves focus to the first row after previewing', async () => {
    mount([vscode], { imported: true, added: [] });
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Import github' })));
  });

  it('shows why a pasted file cannot be imported, offers no Import, and goes back to the source', async () => {
    const broken: ImportPreview = {
      format: 'cursor',
      servers: [],
      inputs: [],
      problems: [{ message: "Expected ','", line: 4, column: 5 }],
    };
    mount([], { imported: true, added: [] }, broken);
    fireEvent.change(await screen.findByRole('textbox', { name: 'Contents' }), {
      target: { value: '{ "mcpServers": { "a": {} "b": {} } }' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toContain("Line 4, column 5: Expected ','");
    expect(screen.queryByRole('button', { name: /^Import \d/ })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Back' })));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    // The pasted text is still there to fix.
    expect(((await screen.findByRole('textbox', { name: 'Contents' })) as HTMLTextAreaElement).value).toBe(
      '{ "mcpServers": { "a": {} "b": {} } }',
    );
  });

  it('words a malformed file’s problems from their codes in Japanese, the file’s names left as they are', async () => {
    await act(() => activateLocale('ja'));
    const problem = (words: CodedText, field: string, line: number): ImportPreview['problems'][number] => ({
      message: words.text,
      hostMessage: words.hostMessage,
      field,
      line,
      column: 5,
    });
    const broken: ImportPreview = {
      format: 'vscode',
      servers: [],
      inputs: [],
      problems: [
        problem(configImportError('config-import-errors.input-id-twice', { input: 'token' }), 'inputs.1.id', 3),
        problem(
          configImportError('config-import-errors.input-not-declared', { server: 'github', input: 'tokn' }),
          'servers.github',
          9,
        ),
      ],
    };
    mount([], { imported: true, added: [] }, broken);
    fireEvent.change(await screen.findByRole('textbox', { name: /.+/ }), { target: { value: '{}' } });
    fireEvent.click(screen.getByRole('button', { name: 'プレビュー' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('id が「token」の入力が 2 つあります。1 つだけにしてください');
    expect(alert.textContent).toContain(
      'サーバー「github」は「${input:tokn}」を使っていますが、「inputs」に id「tokn」の入力が宣言されていません',
    );
    expect(alert.textContent).not.toContain('Two inputs');
    await act(() => activateLocale('en'));
  });

  it('asks for the missing password before calling the host, then shows the host refusal per row', async () => {
    const { transport } = mount([vscode], {
      imported: false,
      failures: [
        {
          sourceName: 'github',
          message: 'Berth already has a server named "github": choose another name',
          field: 'name',
          hostMessage: { code: 'config-import-errors.name-taken', params: { name: 'github' } },
        },
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Import 1 server' }));
    expect(await screen.findByText('Enter a value for “GitHub token”')).toBeTruthy();
    expect(transport.calls.map((call) => call.method)).not.toContain('configImport.apply');

    fireEvent.change(screen.getByLabelText('GitHub token'), { target: { value: 'ghp_x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 server' }));
    expect(await screen.findByText(/choose another name/)).toBeTruthy();
    expect(screen.getByText(/Nothing was imported/)).toBeTruthy();
    expect(transport.calls.at(-1)).toMatchObject({
      method: 'configImport.apply',
      input: { servers: [{ sourceName: 'github', name: 'github' }], answers: { token: 'ghp_x' } },
    });
    expect(screen.getByRole('textbox', { name: 'Name in Berth for github' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('closes and selects the server once imported', async () => {
    const { store } = mount([vscode], { imported: true, added: ['github'] });
    fireEvent.click(await screen.findByRole('button', { name: /VS Code \(user\)/ }));
    fireEvent.change(await screen.findByLabelText('GitHub token'), { target: { value: 'ghp_x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 server' }));
    await waitFor(() => expect(store.getState().interopDialog).toBeUndefined());
    expect(store.getState().selectedServer).toBe('github');
  });
});
