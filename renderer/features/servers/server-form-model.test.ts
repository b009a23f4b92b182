import { describe, expect, it } from 'vitest';
import { SECRET_MASK, ServerConfigSchema } from '../../../shared/domain';
import { fail } from '../../../shared/result';
import { activateLocale } from '../../i18n/i18n';
import { serverState } from '../../test-support/fake-transport';
import {
  buildServerInput as buildInput,
  emptyFormValues,
  errorsFromFailure as errorsAt,
  exampleFormValues,
  formValuesFromServer,
  newRowId,
  splitCommandLine,
  type ServerFormValues,
} from './server-form-model';
import { wordsTexts } from '../../i18n/words';

/** The outcome as the form shows it: its errors worded in the active locale. */
function buildServerInput(...args: Parameters<typeof buildInput>) {
  const outcome = buildInput(...args);
  return outcome.ok ? outcome : { ok: false as const, errors: wordsTexts(outcome.errors) };
}

/** Where a failure lands, worded as the form shows it. */
const errorsFromFailure = (...args: Parameters<typeof errorsAt>) => wordsTexts(errorsAt(...args));

function values(overrides: Partial<ServerFormValues> = {}): ServerFormValues {
  return { ...emptyFormValues(), name: 'files', command: 'npx', ...overrides };
}

describe('buildServerInput', () => {
  it('builds a config the host schema accepts, with seconds turned into ms', () => {
    const outcome = buildServerInput(
      values({
        name: '  files ',
        args: [
          { id: newRowId(), value: '-y' },
          { id: newRowId(), value: 'a b' },
        ],
        env: [{ id: newRowId(), key: 'TOKEN', value: 's3cret', secret: true }],
        cwd: ' /tmp ',
        startupSeconds: '12.5',
      }),
    );
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.name).toBe('files');
    expect(outcome.config).toMatchObject({
      command: 'npx',
      args: ['-y', 'a b'],
      env: { TOKEN: 's3cret' },
      secretEnv: ['TOKEN'],
      cwd: '/tmp',
    });
    expect(outcome.config.timeouts).toEqual({ startupMs: 12_500, requestMs: 60_000, maxTotalMs: 600_000 });
    expect(ServerConfigSchema.safeParse(outcome.config).success).toBe(true);
  });

  it('puts each problem under its own field', () => {
    const envId = newRowId();
    const outcome = buildServerInput(
      values({
        name: '-bad',
        command: '  ',
        env: [{ id: envId, key: '1X', value: 'v', secret: false }],
        startupSeconds: '0.5',
        maxRestarts: 'lots',
      }),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.name).toMatch(/starting with a letter or digit/);
    expect(outcome.errors.command).toMatch(/Enter the command/);
    expect(outcome.errors[`env.${envId}.key`]).toMatch(/letters, digits and _/);
    expect(outcome.errors.startupSeconds).toBe('Use at least 1 second');
    expect(outcome.errors.maxRestarts).toBe('Enter a whole number');
  });

  it('flags duplicate env names and a secret made public without a new value', () => {
    const a = newRowId();
    const b = newRowId();
    const outcome = buildServerInput(
      values({
        env: [
          { id: a, key: 'KEY', value: SECRET_MASK, secret: false },
          { id: b, key: 'KEY', value: 'x', secret: false },
        ],
      }),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors[`env.${a}.value`]).toMatch(/type the value again/);
    expect(outcome.errors[`env.${b}.key`]).toBe('KEY is already set above');
  });

  it('skips blank env rows and sends unchanged secrets back as the mask', () => {
    const server = serverState('gh', {
      config: ServerConfigSchema.parse({
        command: 'gh-mcp',
        env: { TOKEN: SECRET_MASK, MODE: 'ro' },
        secretEnv: ['TOKEN'],
        logLevel: 'debug',
      }),
    });
    const form = formValuesFromServer(server);
    expect(form.env.map((r) => [r.key, r.value, r.secret])).toEqual([
      ['TOKEN', SECRET_MASK, true],
      ['MODE', 'ro', false],
    ]);
    form.env.push({ id: newRowId(), key: '', value: '', secret: false });
    const outcome = buildServerInput(form, server.config);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.config.env).toEqual({ TOKEN: SECRET_MASK, MODE: 'ro' });
    // Fields the form does not show survive an edit.
    expect(outcome.config.logLevel).toBe('debug');
  });

  it('shows the stored log level and sets, changes or clears it', () => {
    const server = serverState('gh', { config: ServerConfigSchema.parse({ command: 'gh-mcp', logLevel: 'debug' }) });
    const form = formValuesFromServer(server);
    expect(form.logLevel).toBe('debug');
    const changed = buildServerInput({ ...form, logLevel: 'error' }, server.config);
    expect(changed.ok && changed.config.logLevel).toBe('error');
    // "Server default" must not let the stored level come back through `base`.
    const cleared = buildServerInput({ ...form, logLevel: '' }, server.config);
    expect(cleared.ok).toBe(true);
    if (!cleared.ok) return;
    expect('logLevel' in cleared.config).toBe(false);
    expect(emptyFormValues().logLevel).toBe('');
  });

  it('explains limits that contradict each other and restart counts out of range', () => {
    const outcome = buildServerInput(
      values({
        requestSeconds: '120',
        maxTotalSeconds: '60',
        initialDelaySeconds: '10',
        maxDelaySeconds: '5',
        maxRestarts: '-1',
      }),
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toEqual({
      maxTotalSeconds: 'Use at least 120 seconds, the same as the request timeout',
      maxDelaySeconds: 'Use at least 10 seconds, the same as the first delay',
      maxRestarts: 'Use 0 or more (0 turns automatic restarts off)',
    });
    const tooMany = buildServerInput(values({ maxRestarts: '1000', initialDelaySeconds: '0.01' }));
    expect(tooMany.ok ? {} : tooMany.errors).toEqual({
      maxRestarts: 'Use at most 100 restarts',
      initialDelaySeconds: 'Use at least 0.1 seconds',
    });
  });

  it("says what is wrong in the person's language", async () => {
    await activateLocale('ja');
    const outcome = buildServerInput(
      values({
        requestSeconds: '120',
        maxTotalSeconds: '60',
        maxRestarts: 'two',
        env: [
          { id: newRowId(), key: '', value: 'x', secret: false },
          { id: newRowId(), key: 'A', value: '1', secret: false },
          { id: newRowId(), key: 'A', value: '2', secret: false },
        ],
      }),
    );
    expect(outcome.ok ? [] : Object.values(outcome.errors).sort()).toEqual([
      'A は上で設定済みです',
      'この変数に名前を付けるか、行を削除してください',
      'リクエストのタイムアウトと同じ 120 秒以上にしてください',
      '整数を入力してください',
    ]);
  });

  it('prefills the example with server-everything through npx', () => {
    const example = exampleFormValues();
    expect([example.command, ...example.args.map((a) => a.value)]).toEqual([
      'npx',
      '-y',
      '@modelcontextprotocol/server-everything',
    ]);
    expect(buildServerInput(example).ok).toBe(true);
  });
});

describe('errorsFromFailure', () => {
  const form = values();
  it('shows a name conflict under the name', () => {
    expect(errorsFromFailure(fail('CONFLICT', 'A server named files already exists'), form)).toEqual({
      name: 'A server named files already exists',
    });
  });
  it('maps a config path to its field, and anything else to the top of the form', () => {
    expect(errorsFromFailure(fail('INVALID_INPUT', 'bad', 'config.command'), form)).toEqual({ command: 'bad' });
    expect(errorsFromFailure(fail('INVALID_INPUT', 'slow', 'config.timeouts.requestMs'), form)).toEqual({
      requestSeconds: 'slow',
    });
    expect(errorsFromFailure(fail('CONFIG_INVALID', 'The config file is broken'), form)).toEqual({
      form: 'The config file is broken',
    });
  });
});

describe('splitCommandLine', () => {
  it('splits like a shell for simple quoting', () => {
    expect(splitCommandLine('npx -y @scope/pkg')).toEqual(['npx', '-y', '@scope/pkg']);
    expect(splitCommandLine(`uvx mcp-server "my dir" 'it''s' a\\ b ""`)).toEqual([
      'uvx',
      'mcp-server',
      'my dir',
      'its',
      'a b',
      '',
    ]);
  });
});
