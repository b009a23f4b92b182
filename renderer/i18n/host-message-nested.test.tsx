// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configError } from '../../shared/domain/config-errors';
import { HostMessageSchema, MAX_CAUSE_DEPTH, type HostMessage } from '../../shared/domain/host-message';
import { serverError } from '../../shared/domain/server-errors';
import { startFailureWords } from '../../shared/domain/server-start-error';
import { credentialError } from '../../shared/domain/credential-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { serverStateReason } from '../../shared/domain/server-state-reasons';
import { settingsError } from '../../shared/domain/settings-errors';
import { hostText, HostMessageText } from './host-message';
import { activateLocale } from './i18n';
import { BerthI18nProvider } from './provider';

afterEach(cleanup);
afterAll(() => activateLocale('en'));

const exited = serverStateReason('server-state.exited-stderr', { exit: '1', stderr: 'fatal: no token' });
const gaveUp = serverStateReason('server-state.gave-up', { restarts: 3, reason: exited.text }, exited.hostMessage);

describe('a reason inside a reason (the restart policy around a crash) is worded whole', () => {
  it('keeps the English Berth always said, and the inner code as its cause', () => {
    expect(gaveUp.text).toBe('gave up after 3 restarts: exited with code 1 — stderr: fatal: no token');
    expect(gaveUp.hostMessage).toEqual({
      code: 'server-state.gave-up',
      params: { restarts: 3, reason: 'exited with code 1 — stderr: fatal: no token' },
      cause: { code: 'server-state.exited-stderr', params: { exit: '1', stderr: 'fatal: no token' } },
    });
  });

  it('words the inner reason in the person’s language too, as text and as markup', async () => {
    await activateLocale('zh-CN');
    const chinese = '重启 3 次后已放弃：已退出（1）。它在 stderr 上的最后一行：fatal: no token';
    expect(hostText(gaveUp.hostMessage, gaveUp.text)).toBe(chinese);
    const { container } = render(
      <BerthI18nProvider>
        <p>
          <HostMessageText message={gaveUp.hostMessage} fallback={gaveUp.text} />
        </p>
      </BerthI18nProvider>,
    );
    expect(container.textContent).toBe(chinese);
  });

  it('keeps an uncoded inner reason as the host wrote it', async () => {
    await activateLocale('ko');
    const off = serverStateReason('server-state.restart-off', { reason: 'went away' });
    expect(off.text).toBe('went away (automatic restart is off)');
    expect(hostText(off.hostMessage, off.text)).toBe('went away (자동 다시 시작이 꺼져 있음)');
  });
});

describe('a reason inside a reason inside a reason (a reconnect that never came) is worded whole', () => {
  const start = startFailureWords({ code: 'exited', exit: '2', stage: 'handshake', serverLine: 'fatal: bad token' });
  const crashed = serverStateReason('server-state.gave-up', { restarts: 1, reason: start.text }, start.hostMessage);
  const lost = { name: 'remote', subject: 'prompts/get', cause: 'session-lost' } as const;
  const notBack = serverError('server-errors.reconnect-failed', { ...lost, reason: crashed.text }, crashed.hostMessage);

  it('in English, byte for byte what Berth always said', () => {
    expect(notBack.text).toBe(
      "server 'remote' ended the session before prompts/get ran; reconnecting, but could not reconnect: " +
        'gave up after 1 restart: exited (code 2) during the MCP handshake — stderr: fatal: bad token',
    );
  });

  it('in Japanese, every level, as text and as markup', async () => {
    await activateLocale('ja');
    const japanese =
      'サーバー「remote」が prompts/get の実行前にセッションを終了したため再接続していましたが、再接続できませんでした: ' +
      '1 回再起動したあと、あきらめました: MCP ハンドシェイク中に終了しました（コード 2）。stderr の出力: fatal: bad token';
    expect(hostText(notBack.hostMessage, notBack.text)).toBe(japanese);
    const { container } = render(
      <BerthI18nProvider>
        <p>
          <HostMessageText message={notBack.hostMessage} fallback={notBack.text} />
        </p>
      </BerthI18nProvider>,
    );
    expect(container.textContent).toBe(japanese);
  });

  it('a cause the catalog lacks keeps the host’s English, the levels around it still worded', async () => {
    await activateLocale('ja');
    const newer = { ...notBack.hostMessage, cause: { ...crashed.hostMessage, cause: { code: 'server-start.newer' } } };
    expect(hostText(newer, notBack.text)).toContain(start.text);
    expect(hostText(newer, notBack.text)).not.toContain('gave up');
  });
});

describe('how deep a reason nests', () => {
  const chain = (levels: number): HostMessage =>
    Array.from({ length: levels }, (_, i) => i).reduce<HostMessage>(
      (cause, i) => ({ code: 'server-state.restart-off', params: { reason: `level ${i}` }, cause }),
      { code: 'server-state.stopped' },
    );

  it(`takes ${MAX_CAUSE_DEPTH} causes and refuses a fifth`, () => {
    expect(HostMessageSchema.safeParse(chain(MAX_CAUSE_DEPTH)).success).toBe(true);
    expect(HostMessageSchema.safeParse(chain(MAX_CAUSE_DEPTH + 1)).success).toBe(false);
  });

  it('the host drops the innermost code of a deeper one, so what it sends always passes', () => {
    const deep = chain(MAX_CAUSE_DEPTH + 2);
    const words = serverStateReason('server-state.restart-off', { reason: 'deep' }, deep);
    expect(HostMessageSchema.safeParse(words.hostMessage).success).toBe(true);
    expect(words.hostMessage.cause).toMatchObject({ params: { reason: `level ${MAX_CAUSE_DEPTH + 1}` } });
  });
});

describe("config's, sign-in's and settings' failures in Chinese with their facts", () => {
  it.each<[string, CodedText, string]>([
    [
      'config',
      configError('config-errors.duplicate-keys', { name: 'files' }),
      '配置项“files”有重复的键，修改会产生歧义；请先在编辑器中修正。',
    ],
    [
      'credentials',
      credentialError('credential-errors.stored-secret-missing', { section: 'headers', key: 'Authorization' }),
      '请重新输入 Authorization 请求头的值：它保存的机密值已不在 Berth 的密钥存储中。',
    ],
    [
      'settings',
      settingsError('settings-errors.result-limit-range', { min: 500, max: 500_000 }),
      '结果上限必须是 500 到 500,000 之间的整数 token 数。',
    ],
  ])('%s', async (_family, words, chinese) => {
    await activateLocale('zh-CN');
    expect(hostText(words.hostMessage, words.text)).toBe(chinese);
  });
});
