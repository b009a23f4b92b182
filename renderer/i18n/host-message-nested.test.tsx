// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configError } from '../../shared/domain/config-errors';
import { credentialError } from '../../shared/domain/credential-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { nestedReason, serverStateReason } from '../../shared/domain/server-state-reasons';
import { settingsError } from '../../shared/domain/settings-errors';
import { hostText, HostMessageText } from './host-message';
import { activateLocale } from './i18n';
import { BerthI18nProvider } from './provider';

afterEach(cleanup);
afterAll(() => activateLocale('en'));

const exited = serverStateReason('server-state.exited-stderr', { exit: '1', stderr: 'fatal: no token' });
const gaveUp = serverStateReason('server-state.gave-up', { restarts: 3, ...nestedReason(exited) });

describe('a reason inside a reason (the restart policy around a crash) is worded whole', () => {
  it('keeps the English Berth always said, and the inner code beside it', () => {
    expect(gaveUp.text).toBe('gave up after 3 restarts: exited with code 1 — stderr: fatal: no token');
    expect(gaveUp.hostMessage.params).toEqual({
      restarts: 3,
      reason: 'exited with code 1 — stderr: fatal: no token',
      reasonCode: 'server-state.exited-stderr',
      'reason.exit': '1',
      'reason.stderr': 'fatal: no token',
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
    const off = serverStateReason('server-state.restart-off', nestedReason({ text: 'went away' }));
    expect(off.text).toBe('went away (automatic restart is off)');
    expect(hostText(off.hostMessage, off.text)).toBe('went away (자동 다시 시작이 꺼져 있음)');
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
