import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import lingui from 'eslint-plugin-lingui';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import {
  HOST_ENGLISH_ALLOWED,
  LOCALIZED_TEXT_RULES,
  MODULE_TEXT_RULES,
  VIEW_TEXT_RULES,
} from './localized-text-rules.mjs';
import { UNLOCALIZED_FILES } from './unlocalized-files.mjs';

const root = join(import.meta.dirname, '..');
const RULE_IDS = Object.keys({ ...LOCALIZED_TEXT_RULES, ...MODULE_TEXT_RULES });

/** ESLint with only the localized-text rules, as eslint.config.js applies them, and no exceptions. */
function linter(): ESLint {
  return new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.tsx'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
        // The plugin's types follow @typescript-eslint's rule shape, not ESLint's own Plugin type.
        plugins: { lingui: lingui as unknown as ESLint.Plugin },
        rules: LOCALIZED_TEXT_RULES,
      },
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { lingui: lingui as unknown as ESLint.Plugin },
        rules: MODULE_TEXT_RULES,
      },
    ],
  });
}

async function literalsIn(code: string, file = 'renderer/features/example/example.tsx'): Promise<string[]> {
  const [result] = await linter().lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}:${m.line}`).sort();
}

describe('the no-unlocalized-strings lint', () => {
  it('catches words in JSX, in titles and aria-labels, and in label maps, and lets catalog ids, classes and keys pass', async () => {
    expect(
      await literalsIn(
        [
          "const LABELS = { ok: 'All good' };",
          'export function A({ t }: { t: (id: string) => string }) {',
          '  return (',
          '    <div className="settings-view" data-testid="x">',
          '      Hello there',
          "      <span title=\"Copy the key\" aria-label={'Copy'}>{t('settings.language.title')}</span>",
          '      <button aria-labelledby="a-title" type="button">语言</button>',
          '    </div>',
          '  );',
          '}',
        ].join('\n'),
      ),
    ).toEqual([
      'lingui/no-unlocalized-strings:1', // the label map
      'lingui/no-unlocalized-strings:4', // "Hello there" (the text starts after the <div>'s '>')
      'lingui/no-unlocalized-strings:6', // aria-label={'Copy'}
      'lingui/no-unlocalized-strings:7', // 语言
      'no-restricted-syntax:6', // title="Copy the key"
    ]);
  });

  it('catches words a .ts module keeps or returns for the screen, and lets ids, topics, CSS, console lines and bugs pass', async () => {
    expect(
      await literalsIn(
        [
          "import { translate } from '../../i18n/use-t';",
          'export function load(toast: (title: string) => void, fail: boolean) {',
          "  bindTopic('chat.loadedToolsChanged', 'servers.changed');",
          "  const className = 'tool-card tool-card-wide';",
          "  if (fail) throw new Error('load() ran twice: a bug');",
          "  console.warn('Berth: the store is not ready');",
          "  toast(translate('chat.toast.loadFailed'));",
          "  toast('Could not load the conversations');",
          '  const count = 2;',
          '  return { className, notice: `${count} servers stopped`, locale: fail ? "en-XA" : "zh-TW" };',
          '}',
          'declare function bindTopic(...topics: string[]): void;',
          "export const LOST_MESSAGE = 'The connection was lost';",
          "export const failure = { code: 'NOT_FOUND', query: '(prefers-color-scheme: dark)' };",
        ].join('\n'),
        'renderer/store/example-slice.ts',
      ),
    ).toEqual([
      'lingui/no-unlocalized-strings:10', // the notice template
      'lingui/no-unlocalized-strings:13', // a sentence in a SCREAMING_CASE constant
      'lingui/no-unlocalized-strings:8', // the toast's title
    ]);
  });

  it('lists each not-yet-converted file once, and only files that exist', () => {
    expect(new Set(UNLOCALIZED_FILES).size).toBe(UNLOCALIZED_FILES.length);
    expect(UNLOCALIZED_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });

  it('lists only files that still have a literal: a converted file leaves the list', async () => {
    // ESLint lints the whole folder when given no files: an empty list has nothing to check.
    const results =
      UNLOCALIZED_FILES.length === 0 ? [] : await linter().lintFiles(UNLOCALIZED_FILES.map((file) => join(root, file)));
    const converted = results
      .filter((result) => !result.messages.some((m) => m.ruleId !== null && RULE_IDS.includes(m.ruleId)))
      .map((result) => result.filePath.slice(root.length + 1));
    expect(converted, 'these files have no literal left: take them out of test/unlocalized-files.mjs').toEqual([]);
  }, 120_000);

  it("catches a failure's English shown or kept as words in a view, and lets failureText and HostMessageText pass", async () => {
    const views = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.tsx'],
          languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
          rules: VIEW_TEXT_RULES,
        },
      ],
    });
    const code = [
      'export function A({ result, setError }: { result: Failure; setError: (text: string) => void }) {',
      '  setError(result.message);',
      '  setError(failureWords(result));',
      '  return (',
      '    <p title="Copy the key">',
      '      {result.message}',
      '      {failureText(result)} <HostMessageText message={result.hostMessage} fallback={result.message} />',
      '    </p>',
      '  );',
      '}',
    ].join('\n');
    const [linted] = await views.lintText(code, { filePath: join(root, 'renderer/features/example/example.tsx') });
    expect((linted?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}:${m.line}`).sort()).toEqual([
      'no-restricted-syntax:2', // a setter given the English
      'no-restricted-syntax:5', // the title check still applies
      'no-restricted-syntax:6', // the English shown
    ]);
    // The views other helpers convert are allowed for now: each names a file or folder that exists.
    expect(HOST_ENGLISH_ALLOWED.filter((entry) => !existsSync(join(root, entry.replace(/\/\*\*$/, ''))))).toEqual([]);
  });

  it('refuses words worded into state (a setter given t(), translate(), failureText() or hostText()), lets Words pass', async () => {
    const views = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.tsx'],
          languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
          rules: VIEW_TEXT_RULES,
        },
      ],
    });
    const code = [
      'export function A({ result, t, setError, setNote, setState }: Props) {',
      "  setError(t('chat.row.titleRequired'));",
      '  setError(failureText(result));',
      "  setNote({ ok: false, text: translate('settings.providers.models.duplicate', { id }) });",
      '  setState((current) => ({ ...current, error: hostText(result.hostMessage, result.text) }));',
      "  setError(words('chat.row.titleRequired'));",
      '  setError(failureWords(result));',
      '  setState((current) => ({ ...current, error: result }));',
      "  return <p>{t('chat.row.titleRequired')} {failureText(result)}</p>;",
      '}',
    ].join('\n');
    const [linted] = await views.lintText(code, { filePath: join(root, 'renderer/features/example/example.tsx') });
    expect((linted?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}:${m.line}`).sort()).toEqual([
      'no-restricted-syntax:2',
      'no-restricted-syntax:3',
      'no-restricted-syntax:4',
      'no-restricted-syntax:5',
    ]);
  });
});
