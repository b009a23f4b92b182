// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatToolResultBlock, ChatToolUseBlock } from '../../../shared/domain/chat';
import { fail, ok } from '../../../shared/result';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import type { FakeHandlers } from '../../test-support/fake-transport';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { ToolCallCard } from './tool-call-card';
import { RESULT_PAGE_CHARS } from './use-whole-result';
import { activateLocale } from '../../i18n/i18n';

// A big result arrives as a preview (app/chat/results/result-preview.ts): its card says so, and opening it reads
// the whole from the host page by page, with progress, or says plainly that it is gone.

beforeAll(stubResizeObserver);
let restoreSizes: () => void;
beforeEach(() => {
  restoreSizes = mockElementSizes({ scrollerSelector: '.result-viewer', viewportHeight: 540, rowHeight: () => 18 });
});
afterEach(() => {
  cleanup();
  restoreSizes();
});

const use: ChatToolUseBlock = {
  type: 'tool_use',
  id: 'toolu_huge',
  server: 'huge',
  tool: 'huge_log',
  apiName: 'huge__huge_log',
  input: {},
};
const WHOLE = Array.from(
  { length: 40_000 },
  (_, index) => `line ${String(index + 1).padStart(7, '0')} ${'.'.repeat(36)}`,
).join('\n');
const preview: ChatToolResultBlock = {
  type: 'tool_result',
  toolUseId: use.id,
  content: [{ type: 'text', text: WHOLE.slice(0, 20_000) }],
  isError: false,
  whole: { chars: WHOLE.length, blocks: 1 },
};

function mount(result: ChatToolResultBlock, handlers: FakeHandlers) {
  const view = renderWithBerth(
    <ToolCallCard conversationId="c1" use={use} result={result} live={undefined} turnRunning={false} />,
    { handlers },
  );
  return { card: screen.getByRole('article', { name: 'Call of huge_log' }), transport: view.transport };
}

describe('a big result that arrived as a preview', () => {
  it('says it is the start, and opening it reads the whole from the host in pages', async () => {
    let release: () => void = () => undefined;
    const { card, transport } = mount(preview, {
      'chat.readResult': async ({ offset, limit }) => {
        // The second page waits, so the progress can be seen.
        if (offset === RESULT_PAGE_CHARS) await new Promise<void>((resolve) => (release = resolve));
        const end = Math.min(WHOLE.length, offset + limit);
        return ok({
          text: WHOLE.slice(offset, end),
          offset,
          totalChars: WHOLE.length,
          nextOffset: end < WHOLE.length ? end : null,
        });
      },
    });
    const note = await within(card).findByRole('note', { name: 'Preview of a long result' });
    expect(note.textContent).toContain(
      `The start of a long result: ${WHOLE.length.toLocaleString('en-US')} characters in 1 part`,
    );

    // The card shows the start, as it shows any long text.
    expect(card.querySelector('pre.content-text')?.textContent).toHaveLength(20_000);
    expect(card.textContent).toContain(
      `Showing the first 20,000 of ${WHOLE.length.toLocaleString('en-US')} characters.`,
    );
    fireEvent.click(within(note).getByRole('button', { name: 'Open the whole result' }));
    const status = await within(card).findByRole('status');
    await waitFor(() =>
      expect(status.textContent).toContain(`% of ${WHOLE.length.toLocaleString('en-US')} characters`),
    );
    expect(within(note).getByRole('button', { name: 'Open the whole result' })).toHaveProperty('disabled', true);
    release();
    const dialog = await screen.findByRole('dialog', { name: 'Whole result of huge_log' });
    expect(dialog.textContent).toContain(`${WHOLE.length.toLocaleString('en-US')} characters, 40,000 lines`);
    expect(transport.calls.filter((call) => call.method === 'chat.readResult').map((call) => call.input)).toEqual([
      { id: 'c1', toolUseId: use.id, offset: 0, limit: RESULT_PAGE_CHARS },
      { id: 'c1', toolUseId: use.id, offset: RESULT_PAGE_CHARS, limit: RESULT_PAGE_CHARS },
      { id: 'c1', toolUseId: use.id, offset: 2 * RESULT_PAGE_CHARS, limit: RESULT_PAGE_CHARS },
      { id: 'c1', toolUseId: use.id, offset: 3 * RESULT_PAGE_CHARS, limit: RESULT_PAGE_CHARS },
    ]);
    expect(within(card).queryByRole('status')).toBeNull();
  });

  it('says plainly when the whole result is gone', async () => {
    const { card } = mount(preview, {
      'chat.readResult': () =>
        fail('NOT_FOUND', 'This result is no longer available: its file beside the conversation is missing or damaged'),
    });
    fireEvent.click(await within(card).findByRole('button', { name: 'Open the whole result' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(
      'Could not open the whole result: This result is no longer available: its file beside the conversation is missing or damaged',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a preview whose file was found missing at load offers no opening', async () => {
    const { card } = mount({ ...preview, whole: { chars: WHOLE.length, blocks: 1, missing: true } }, {});
    const note = await within(card).findByRole('note', { name: 'Preview of a long result' });
    expect(note.textContent).toContain('Only the start of this result is left');
    expect(within(note).queryByRole('button')).toBeNull();
  });

  it('reads in the active language: the preview note, the progress, the failure; the host’s reason as sent', async () => {
    await activateLocale('zh-TW');
    let release: () => void = () => undefined;
    const view = renderWithBerth(
      <ToolCallCard conversationId="c1" use={use} result={preview} live={undefined} turnRunning={false} />,
      {
        handlers: {
          'chat.readResult': async ({ offset, limit }) => {
            if (offset === 0)
              return ok({ text: WHOLE.slice(0, limit), offset, totalChars: WHOLE.length, nextOffset: limit });
            await new Promise<void>((resolve) => (release = resolve));
            return fail('NOT_FOUND', 'This result is no longer available');
          },
        },
      },
    );
    const card = within(view.container).getByRole('article');
    const total = WHOLE.length.toLocaleString('en-US');
    const note = await within(card).findByRole('note', { name: '長結果預覽' });
    expect(note.querySelector('p')?.textContent).toBe(
      `長結果的開頭：共 ${total} 個字元，分為 1 個部分。完整內容保存在對話旁，開啟時再讀取。`,
    );
    expect(note.querySelector('strong')?.textContent).toBe(`長結果的開頭：共 ${total} 個字元，分為 1 個部分`);
    expect(card.textContent).toContain(`顯示 ${total} 個字元中的前 20,000 個。`);
    expect(within(card).getByRole('region', { name: '結果的開頭' })).toBeTruthy();
    fireEvent.click(within(note).getByRole('button', { name: '開啟完整結果' }));
    const percent = Math.floor((RESULT_PAGE_CHARS / WHOLE.length) * 100);
    await waitFor(() =>
      expect(within(card).getByRole('status').textContent).toBe(
        `正在載入完整結果… 共 ${total} 個字元，已讀 ${percent}%`,
      ),
    );
    expect(within(card).getByRole('progressbar', { name: '正在載入完整結果' })).toBeTruthy();
    release();
    expect((await within(card).findByRole('alert')).textContent).toBe(
      '無法開啟完整結果：This result is no longer available',
    );
  });
});
