// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostMessage } from '../../shared/domain/host-message';
import type { ServerStartWording } from '../../shared/domain/server-start-error';
import { conversationError } from '../../shared/domain/conversation-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { providerError } from '../../shared/domain/provider-errors';
import { rootError } from '../../shared/domain/root-errors';
import { serverError } from '../../shared/domain/server-errors';
import { serverStateReason } from '../../shared/domain/server-state-reasons';
import { hostText, HostMessageText } from './host-message';
import { activateLocale, type UiLocale } from './i18n';
import { BerthI18nProvider } from './provider';

afterEach(cleanup);

const NOT_ON_PATH: ServerStartWording = {
  code: 'server-start.command-not-on-path',
  params: { command: 'uvx', path: '/usr/bin:/bin' },
};
const FALLBACK = "command 'uvx' not found on PATH (/usr/bin:/bin) — install it or use its full path";

function shown(message: HostMessage | undefined): HTMLElement {
  const { container } = render(
    <BerthI18nProvider>
      <p>
        <HostMessageText message={message} fallback={FALLBACK} />
      </p>
    </BerthI18nProvider>,
  );
  return container;
}

describe("a host message worded in the person's language", () => {
  it.each<[UiLocale, string]>([
    ['en', 'Command uvx was not found on PATH (/usr/bin:/bin). Install it or use its full path.'],
    ['zh-CN', '在 PATH（/usr/bin:/bin）中找不到命令 uvx。请安装它或使用完整路径。'],
    ['zh-TW', '在 PATH（/usr/bin:/bin）中找不到指令 uvx。請安裝它或使用完整路徑。'],
    ['ko', 'PATH(/usr/bin:/bin)에서 명령 uvx을(를) 찾을 수 없습니다. 설치하거나 전체 경로를 사용하세요.'],
    ['ja', 'PATH（/usr/bin:/bin）にコマンド uvx が見つかりません。インストールするか、フルパスを指定してください。'],
  ])('in %s, with the command marked as code', async (locale, text) => {
    await activateLocale(locale);
    const container = shown(NOT_ON_PATH);
    expect(container.textContent).toBe(text);
    expect(container.querySelector('code')?.textContent).toBe('uvx');
    expect(hostText(NOT_ON_PATH, FALLBACK)).toBe(text);
  });

  it("shows the host's English for a code the catalog has no words for, and for no code", async () => {
    await activateLocale('ko');
    expect(shown({ code: 'server-start.from-a-newer-host', params: { command: 'uvx' } }).textContent).toBe(FALLBACK);
    cleanup();
    expect(shown(undefined).textContent).toBe(FALLBACK);
    expect(hostText({ code: 'nothing.known' }, FALLBACK)).toBe(FALLBACK);
  });

  it('keeps a param with backslashes as written (a Windows path, an escaped name), never decoding it', async () => {
    await activateLocale('en');
    const command = 'C:\\tools\\x41\\u202Eexe.cmd';
    const message: HostMessage = { code: 'server-start.command-missing', params: { command } };
    expect(hostText(message, FALLBACK)).toContain(command);
    // Decoded, `\x41` would read "A" and `\u202E` would turn the text right to left.
    expect(hostText(message, FALLBACK)).not.toContain('\u202E');
    expect(shown(message).querySelector('code')?.textContent).toBe(command);
  });
});

describe("each family of the host's coded failures and reasons, in Chinese with its facts", () => {
  it.each<[string, CodedText, string]>([
    [
      'servers',
      serverError('server-errors.not-ready', { name: 'files', status: 'starting' }),
      '服务器“files”尚未就绪（正在启动），请在它就绪后再试。',
    ],
    [
      'roots',
      rootError('root-errors.cannot-add', { path: 'C:\\项目', problem: 'unreadable', detail: '' }),
      '无法添加此根目录：无法读取文件夹 C:\\项目（权限被拒绝）。',
    ],
    ['server states', serverStateReason('server-state.config-changed', {}), '配置已更改'],
    [
      'providers',
      providerError('provider-errors.missing-key', { provider: 'Ollama' }),
      '请在“设置”›“模型提供商”中添加 Ollama 的 API 密钥，才能使用它的模型。',
    ],
    [
      'conversations',
      conversationError('conversation-errors.title-too-long', { max: 200 }),
      '标题不能超过 200 个字符。',
    ],
  ])('%s', async (_family, words, chinese) => {
    await activateLocale('zh-CN');
    expect(hostText(words.hostMessage, words.text)).toBe(chinese);
    await activateLocale('en');
    expect(hostText(words.hostMessage, words.text)).not.toBe(chinese);
  });
});
