// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK, type ConfigStatus } from '../../../shared/domain';
import { configProblem } from '../../../shared/domain/config-problems';
import { configError } from '../../../shared/domain/config-errors';
import { fail } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { renderWithBerth } from '../../test-support/render-with-berth';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { ConfigBanner } from './config-banner';
import { ConfigEditorDialog } from './config-editor';

afterEach(cleanup);

function invalid(overrides: Partial<ConfigStatus> = {}): ConfigStatus {
  return {
    path: '/c/config.json',
    state: 'invalid',
    problems: [
      { message: 'Expected comma', line: 3, column: 7 },
      { message: 'Required', field: 'mcpServers.a.command' },
    ],
    text: '{\n  "mcpServers": {\n    "a": {}\n  }\n}',
    ...overrides,
  };
}

function show(status: ConfigStatus, handlers: FakeHandlers = {}) {
  return renderWithBerth(
    <>
      <ConfigBanner />
      <ConfigEditorDialog />
    </>,
    { handlers, prepare: (store) => store.getState().applyConfigStatus(status) },
  );
}

describe('the config banner and fix-it editor', () => {
  it('counts the other problems and the hidden secrets in words that agree with the number', () => {
    show(invalid({ hiddenSecrets: 1 }));
    expect(screen.getByTestId('config-banner').textContent).toContain('Line 3, column 7: Expected comma (and 1 more)');
    fireEvent.click(within(screen.getByTestId('config-banner')).getByRole('button', { name: 'Fix it' }));
    expect(screen.getByTestId('hidden-secrets-note').textContent).toBe(
      `This file holds a secret value in plain text. It is hidden here as ${SECRET_MASK}: leave it as it is to keep their values, or type new ones. Once the file is valid, Berth moves secret values into its secret store.`,
    );
    expect(screen.getByText('5 lines')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to line 3' })).toBeTruthy();
  });

  it('says several hidden secrets in the plural', () => {
    show(invalid({ hiddenSecrets: 3 }));
    fireEvent.click(screen.getByRole('button', { name: 'Fix it' }));
    expect(screen.getByTestId('hidden-secrets-note').textContent).toContain(
      'This file holds 3 secret values in plain text. They are hidden here as',
    );
    expect(screen.getByTestId('hidden-secrets-note').textContent).toContain('leave them as they are to keep');
  });

  it('speaks Japanese when that is the language, the parser’s message and the path left as they are', async () => {
    await act(() => activateLocale('ja'));
    show(invalid({ hiddenSecrets: 2 }));
    const banner = screen.getByTestId('config-banner');
    expect(banner.textContent).toContain('設定ファイルに問題があるため、Berth は読み込みませんでした。');
    expect(banner.textContent).toContain('3 行 7 列: Expected comma（ほか 1 件）');
    fireEvent.click(within(banner).getByRole('button', { name: '修正' }));
    expect(screen.getByRole('dialog').textContent).toContain('/c/config.json が無効なため');
    expect(screen.getByTestId('hidden-secrets-note').textContent).toContain('2 個のシークレット値');
    expect(screen.getByLabelText('設定ファイルの問題').textContent).toContain('mcpServers.a.command: Required');
    expect(screen.getByRole('button', { name: '保存せずに閉じる' })).toBeTruthy();
  });
});

describe("the config's problems with a code", () => {
  afterEach(() => activateLocale('en'));

  const missing = configProblem('config-problems.command-missing', { name: 'files' });
  const wrongType = configProblem('config-problems.wrong-type', {
    name: 'files',
    key: 'args',
    expected: 'array',
    found: 'string',
  });
  const coded = invalid({
    problems: [
      {
        message: missing.text,
        hostMessage: missing.hostMessage,
        field: 'mcpServers.files.command',
        line: 3,
        column: 5,
      },
      { message: wrongType.text, hostMessage: wrongType.hostMessage, field: 'mcpServers.files.args' },
    ],
  });

  it("reads in the person's language, the names and paths as they are, and follows a switch", async () => {
    await act(() => activateLocale('ko'));
    show(coded);
    fireEvent.click(within(screen.getByTestId('config-banner')).getByRole('button', { name: '수정' }));
    const list = screen.getByRole('alert');
    expect(list.textContent).toContain(
      '서버 “files”: “command”가 없습니다. 서버를 시작하는 명령을 입력하세요(예: npx)',
    );
    expect(list.textContent).toContain(
      'mcpServers.files.args: 서버 “files”: “args”은(는) 배열 형식이어야 합니다(현재: 문자열)',
    );
    await act(() => activateLocale('zh-CN'));
    expect(screen.getByRole('alert').textContent).toContain('服务器“files”：“args”必须是数组（实际为字符串）');
  });

  it('keeps the code of a refused save, so the list words it too', async () => {
    await act(() => activateLocale('zh-TW'));
    const inner = configProblem('config-problems.syntax', { error: 'ValueExpected' });
    const refused = configError(
      'config-errors.edit-invalid-at',
      { line: 3, column: 1, more: 0, reason: inner.text },
      inner.hostMessage,
    );
    show(coded, { 'config.saveText': () => fail('INTERNAL', refused.text, undefined, refused.hostMessage) });
    fireEvent.click(within(screen.getByTestId('config-banner')).getByRole('button', { name: /./ }));
    fireEvent.click(screen.getByRole('button', { name: '儲存' }));
    await screen.findByText(/編輯設定時產生了無效的檔案/);
    expect(screen.getByRole('alert').textContent).toContain(
      '編輯設定時產生了無效的檔案：第 3 行，第 1 欄：此處應為一個值',
    );
    // The line the host's English names is still offered.
    expect(screen.getByRole('button', { name: /3/ })).toBeTruthy();
  });

  it("words the JSON parser's problems, and the file ending inside one, in the person's language", async () => {
    const comma = configProblem('config-problems.trailing-comma', { found: '}' });
    const brace = configProblem('config-problems.syntax', { error: 'CloseBraceExpected' });
    const early = configProblem('config-problems.ends-early', { reason: brace.text }, brace.hostMessage);
    const syntax = invalid({
      problems: [
        { message: comma.text, hostMessage: comma.hostMessage, line: 3, column: 26 },
        { message: early.text, hostMessage: early.hostMessage, line: 5, column: 2 },
      ],
    });
    await act(() => activateLocale('ja'));
    show(syntax);
    expect(screen.getByTestId('config-banner').textContent).toContain(
      '3 行 26 列: } の前に余分なカンマがあります。JSON では使えないため、, を削除してください（ほか 1 件）',
    );
    fireEvent.click(within(screen.getByTestId('config-banner')).getByRole('button', { name: '修正' }));
    expect(screen.getByRole('alert').textContent).toContain(
      '5 行 2 列: オブジェクトを閉じる } が必要です（ファイルが途中で終わっています）',
    );
    await act(() => activateLocale('ko'));
    expect(screen.getByRole('alert').textContent).toContain('객체를 닫는 }이(가) 와야 합니다(파일이 너무 일찍 끝남)');
    expect(screen.getByRole('alert').textContent).not.toContain('Expected');
  });
});
