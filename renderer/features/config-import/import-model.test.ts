import { describe, expect, it } from 'vitest';
import type { ImportCandidateView, ImportPreview } from '../../../shared/contract/config-import';
import { activateLocale } from '../../i18n/i18n';
import {
  buildApply,
  errorsFromFailures,
  initialChoices,
  launchLine,
  localErrorTexts,
  neededInputs,
  needsWorkspaceFolder,
} from './import-model';

function candidate(sourceName: string, extra: Partial<ImportCandidateView> = {}): ImportCandidateView {
  return {
    sourceName,
    name: sourceName,
    kind: 'stdio',
    command: 'npx',
    args: ['-y', sourceName],
    secretEnvKeys: [],
    requiredInputs: [],
    usesWorkspaceFolder: false,
    warnings: [],
    ...extra,
  };
}

const preview: ImportPreview = {
  format: 'vscode',
  servers: [
    candidate('github', { requiredInputs: ['token', 'level'], secretEnvKeys: ['GITHUB_TOKEN'] }),
    candidate('files', { usesWorkspaceFolder: true }),
    candidate('memory', {
      name: 'memory 2',
      duplicateOf: { name: 'memory', reason: 'same-name', message: 'Berth already has a server named "memory"' },
    }),
    candidate('remote', {
      kind: 'remote',
      url: 'https://example.com/mcp',
      unsupported: 'Remote servers cannot be imported yet',
      requiredInputs: ['token'],
    }),
  ],
  inputs: [
    { id: 'token', type: 'promptString', description: 'Token', password: true, hasDefault: false },
    {
      id: 'level',
      type: 'pickString',
      description: 'Level',
      password: false,
      options: ['info', 'debug'],
      default: 'info',
      hasDefault: true,
    },
    { id: 'unused', type: 'promptString', description: 'Unused', password: false, hasDefault: false },
  ],
  problems: [],
};

describe('import model', () => {
  it('checks new servers, leaves duplicates unchecked and remote ones unselectable', () => {
    const choices = initialChoices(preview);
    expect(Object.entries(choices).map(([source, choice]) => [source, choice.checked, choice.name])).toEqual([
      ['github', true, 'github'],
      ['files', true, 'files'],
      ['memory', false, 'memory 2'],
      ['remote', false, 'remote'],
    ]);
    // Checking a remote row by hand still does not make it part of the import.
    const forced = { ...choices, remote: { checked: true, name: 'remote' } };
    expect(neededInputs(preview, forced).map((input) => input.id)).toEqual(['token', 'level']);
  });

  it('asks only for the inputs and folder the checked servers use', () => {
    const onlyMemory = {
      github: { checked: false, name: 'github' },
      files: { checked: false, name: 'files' },
      memory: { checked: true, name: 'memory 2' },
      remote: { checked: false, name: 'remote' },
    };
    expect(neededInputs(preview, onlyMemory)).toEqual([]);
    expect(needsWorkspaceFolder(preview, onlyMemory)).toBe(false);
    expect(needsWorkspaceFolder(preview, initialChoices(preview))).toBe(true);
    expect(needsWorkspaceFolder({ ...preview, workspaceFolder: '/work/app' }, initialChoices(preview))).toBe(false);
  });

  it('refuses locally: bad or repeated names, a missing password, a missing folder, nothing selected', () => {
    const choices = {
      ...initialChoices(preview),
      files: { checked: true, name: 'GitHub' },
      memory: { checked: true, name: '-bad' },
    };
    const built = buildApply(preview, choices, {}, ' ');
    expect(built.ok).toBe(false);
    expect(built.ok ? {} : localErrorTexts(built.errors)).toEqual({
      files: '“github” already uses this name',
      memory: expect.stringMatching(/starting with a letter or digit/) as unknown,
      'inputs.token': 'Enter a value for “Token”',
      workspaceFolder: 'Choose the project folder that ${workspaceFolder} stands for',
    });
    const none = Object.fromEntries(
      Object.entries(choices).map(([key, choice]) => [key, { ...choice, checked: false }]),
    );
    const nothing = buildApply(preview, none, {}, '');
    expect(nothing.ok ? {} : localErrorTexts(nothing.errors)).toMatchObject({
      form: 'Select at least one server to import',
    });
  });

  it("says what to fix in the person's language, the config's own names as written", async () => {
    await activateLocale('zh-TW');
    const choices = { ...initialChoices(preview), files: { checked: true, name: 'GitHub' } };
    const built = buildApply(preview, choices, {}, ' ');
    expect(built.ok ? {} : localErrorTexts(built.errors)).toMatchObject({
      files: '「github」已在使用此名稱',
      'inputs.token': '請為「Token」輸入值',
      workspaceFolder: '請選擇 ${workspaceFolder} 所代表的專案資料夾',
    });
  });

  it('builds the request: trimmed names, answers without blanks that have defaults, the folder when needed', () => {
    const choices = { ...initialChoices(preview), github: { checked: true, name: '  gh ' } };
    expect(buildApply(preview, choices, { token: 's3cret', level: '' }, '/work/app')).toEqual({
      ok: true,
      input: {
        servers: [
          { sourceName: 'github', name: 'gh' },
          { sourceName: 'files', name: 'files' },
        ],
        answers: { token: 's3cret' },
        workspaceFolder: '/work/app',
      },
    });
  });

  it('spreads the host refusal over rows, inputs and the form, without repeating a message', () => {
    expect(
      localErrorTexts(
        errorsFromFailures([
          { sourceName: 'github', message: 'Name taken.', field: 'name' },
          { sourceName: 'github', message: 'Needs the token.', field: 'inputs.token' },
          { sourceName: 'other', message: 'Needs the token.', field: 'inputs.token' },
          { sourceName: 'github', message: 'Bad args.', field: 'args.1' },
          { sourceName: '', message: 'The project folder must be an absolute path', field: 'workspaceFolder' },
        ]),
      ),
    ).toEqual({
      github: 'Name taken. Bad args.',
      'inputs.token': 'Needs the token.',
      workspaceFolder: 'The project folder must be an absolute path',
    });
  });

  it('shows the command line or the address', () => {
    expect(launchLine(preview.servers[0]!)).toBe('npx -y github');
    expect(launchLine(preview.servers[3]!)).toBe('https://example.com/mcp');
    expect(launchLine(candidate('spaced', { command: 'node', args: ['my server.js', '--name=$HOME', ''] }))).toBe(
      "node 'my server.js' '--name=$HOME' ''",
    );
    expect(launchLine(candidate('hidden', { command: 'node', args: ['a\nb', 'x\u001b[2J'] }))).toBe(
      "node 'a'$'\\n''b' 'x'$'\\e''[2J'",
    );
  });
});
