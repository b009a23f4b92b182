// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, Conversation } from '../../../shared/domain/chat';
import { chatError } from '../../../shared/domain/chat-error';
import { chatNotice } from '../../../shared/domain/chat-notice';
import type { SettingsView } from '../../../shared/contract/settings';
import { fail, ok } from '../../../shared/result';
import { conversationError } from '../../../shared/domain/conversation-errors';
import { activateLocale } from '../../i18n/i18n';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { preloadLazyChunks } from '../../test-support/preload-lazy-chunks';
import { renderAppWithBerth } from '../../test-support/render-app-with-berth';
import { forgetScrollPositions } from './scroll-memory';
import ToolResultNote from './tool-result-note';
import { withdrawal } from '../../../shared/domain/withdrawal';
import { toolOutcome } from '../../../shared/domain/tool-outcome';
import { renderWithBerth } from '../../test-support/render-with-berth';

// What the host says in the chat (a turn's failure, a notice) reads in the person's language, the facts in place;
// a code the catalog lacks (a newer host) reads as the host's English.

beforeAll(preloadLazyChunks);
beforeAll(() => {
  stubResizeObserver();
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
});
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.message-scroller', viewportHeight: 600, rowHeight: () => 100 });
});
afterEach(async () => {
  cleanup();
  restoreSizes();
  forgetScrollPositions();
  await activateLocale('en');
});

const SETTINGS: SettingsView = {
  apiKey: { source: 'stored', hint: '…wxyz' },
  models: [{ id: 'claude-a', label: 'Claude A' }],
  defaultModel: 'claude-a',
};
const base = { conversationId: 'c1', turnId: 't1' };
const MESSAGES: ChatMessage[] = [{ id: 'u1', role: 'user', createdAt: 1, content: [{ type: 'text', text: 'Hi' }] }];
const CONVERSATION: Conversation = {
  id: 'c1',
  title: 'Weather',
  createdAt: 1,
  updatedAt: 2,
  model: 'claude-a',
  messages: MESSAGES,
  disabledServers: [],
  disabledTools: [],
};

/** The App as a person whose Language setting is `language` sees it (LocaleSync follows the setting). */
function mount(language: SettingsView['language'] = 'zh-CN', messages: ChatMessage[] = MESSAGES) {
  return renderAppWithBerth({
    handlers: {
      'app.info': () =>
        ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
      'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
      'servers.list': () => ok([]),
      'logs.query': () => ok({ entries: [], dropped: 0 }),
      'settings.get': () => ok({ ...SETTINGS, language }),
      'consent.policies': () => ok([]),
      'sampling.policies': () => ok({}),
      'pending.list': () => ok([]),
      'elicitation.awaiting': () => ok([]),
      'chat.list': () =>
        ok([{ id: 'c1', title: 'Weather', createdAt: 1, updatedAt: 2, model: 'claude-a', messageCount: 1 }]),
      'chat.get': () => ok({ ...CONVERSATION, messages }),
      'chat.tools': () => ok({ tools: [], offeredCount: 0 }),
    },
    prepare: (store) => store.getState().showView('chat'),
  });
}

describe("the chat's host messages in the person's language", () => {
  it('a rate-limited turn reads in Chinese with the status, the provider’s words and the seconds in place', async () => {
    await activateLocale('zh-CN');
    const { transport } = mount();
    await screen.findByText('Hi');
    const failure = chatError('chat-error.provider-rate-limited', {
      provider: 'Ollama',
      status: 429,
      detail: 'Rate limit reached',
      retryAfter: 20,
    });
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', {
        type: 'turn-failed',
        ...base,
        message: failure.text,
        hostMessage: failure.message,
      });
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ollama 限制了请求频率（429：Rate limit reached）。请在 20 秒后重试。');
    expect(alert.textContent).not.toContain('Rate limited by');
  });

  it('a compaction notice reads in Chinese with the model and the token counts formatted', async () => {
    await activateLocale('zh-CN');
    const { transport } = mount();
    await screen.findByText('Hi');
    const notice = chatNotice('chat-notice.compacted', {
      before: 181234,
      messages: 12,
      model: 'Claude A',
      after: 40210,
    });
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', { type: 'turn-notice', ...base, message: notice.text, hostMessage: notice.message });
    });
    const note = await screen.findByText((_, element) => element?.classList.contains('banner-text') === true);
    expect(note.textContent).toBe(
      '对话已增长到约 181,234 token，接近 Claude A 的上下文窗口，因此 Berth 用 Claude A 总结了最早的 12 条消息：现在约 40,210 token。这些消息仍然保存着；模型现在通过摘要记住它们。',
    );
  });

  it('a code the catalog lacks, and a failure without a code, read as the host’s English', async () => {
    await activateLocale('zh-CN');
    const { transport } = mount();
    await screen.findByText('Hi');
    act(() => {
      transport.emit('chat.event', { type: 'turn-started', ...base, model: 'claude-a', toolCount: 0 });
      transport.emit('chat.event', {
        type: 'turn-notice',
        ...base,
        message: 'A newer host says this.',
        hostMessage: { code: 'chat-notice.from-a-newer-host', params: { model: 'Claude A' } },
      });
      transport.emit('chat.event', { type: 'turn-failed', ...base, message: 'Something English went wrong.' });
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Something English went wrong.');
    expect(screen.getByText('A newer host says this.')).toBeTruthy();
  });

  it('a call Berth withdrew reads its reason in Korean, the server named as written', async () => {
    await activateLocale('ko');
    const { text, message } = withdrawal('withdrawal.server-disconnected', { server: 'everything' });
    const { container } = renderWithBerth(
      <ToolResultNote
        result={{
          type: 'tool_result',
          toolUseId: 'tu1',
          content: [],
          isError: true,
          denied: { reason: text, reasonMessage: message, byHost: true },
        }}
        taskCancelled={false}
      />,
    );
    expect(container.textContent).toBe(
      '응답하기 전에 취소됨: 서버 “everything” 연결이 끊어짐. 실행되지 않았으며 모델에 알렸습니다.',
    );
  });

  it('a call Berth could not run is headed as Berth’s words, in Japanese, the tool’s name as the model wrote it', async () => {
    await activateLocale('ja');
    const { text, message } = toolOutcome('tool-outcome.no-such-tool', { name: 'gone__tool' });
    mount('ja', [
      ...MESSAGES,
      {
        id: 'a1',
        role: 'assistant',
        createdAt: 2,
        content: [{ type: 'tool_use', id: 'tu1', server: '', tool: 'gone__tool', apiName: 'gone__tool', input: {} }],
      },
      {
        id: 'r1',
        role: 'user',
        createdAt: 3,
        content: [
          {
            type: 'tool_result',
            toolUseId: 'tu1',
            content: [{ type: 'text', text }],
            isError: true,
            outcomeMessage: message,
          },
        ],
      },
    ]);
    const outcome = await screen.findByTestId('host-outcome');
    expect(outcome.textContent).toBe(
      'Berth はこの呼び出しを完了できませんでしたこの会話には「gone__tool」という名前のツールはありません。提供されたツールだけを使ってください。',
    );
  });

  it('the too-many-tools warning of a running turn reads in Traditional Chinese', async () => {
    await activateLocale('zh-TW');
    const { transport } = mount('zh-TW');
    await screen.findByText('Hi');
    const warning = chatNotice('chat-notice.too-many-tools', { count: 64, countAt: 40 });
    act(() => {
      transport.emit('chat.event', {
        type: 'turn-started',
        ...base,
        model: 'claude-a',
        toolCount: 64,
        toolCountWarning: warning.text,
        toolCountWarningMessage: warning.message,
      });
    });
    const note = await screen.findByText((_, element) => element?.classList.contains('banner-text') === true);
    expect(note.textContent).toBe(
      '向模型提供了 64 個工具。超過約 40 個時，模型選擇工具的可靠性會下降，每次請求的成本也更高：請關閉此對話不需要的伺服器或工具，或將「工具搜尋」設為「一律開啟」（工具選單）。',
    );
  });

  it('a refused edit reads in Chinese from its code, and in Korean after a live language switch', async () => {
    await activateLocale('zh-CN');
    const refusal = conversationError('conversation-errors.reply-running', {});
    const { transport } = mount();
    transport.handlers['chat.editAt'] = () => fail('CONFLICT', refusal.text, undefined, refusal.hostMessage);
    await screen.findByText('Hi');
    fireEvent.click(screen.getByRole('button', { name: '编辑' }));
    await act(async () => fireEvent.keyDown(screen.getByRole('textbox', { name: '编辑你的消息' }), { key: 'Enter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('此对话仍在生成回复：请先停止。');
    await act(() => activateLocale('ko'));
    expect(screen.getByRole('alert').textContent).toBe('이 대화에서 아직 답변을 작성하는 중입니다. 먼저 중지하세요.');
  });
});
