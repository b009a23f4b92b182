// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatToolResultBlock, ChatToolUseBlock } from '../../../shared/domain/chat';
import { stubResizeObserver } from '../../test-support/dom-stubs';
import { mockElementSizes } from '../../test-support/element-sizes';
import { PREVIEW_CHARS } from './large-result';
import { viewerRows } from './result-viewer';
import { ToolCallCard } from './tool-call-card';
import { usageSummary } from './usage-line';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { activateLocale } from '../../i18n/i18n';

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
  id: 'toolu_big',
  server: 'files',
  tool: 'read_file',
  apiName: 'files__read_file',
  input: {},
};
const FIVE_MB = Array.from(
  { length: 100_000 },
  (_, index) => `row ${String(index).padStart(6, '0')} ${'x'.repeat(40)}`,
).join('\n');

function mount(result: ChatToolResultBlock) {
  renderWithBerth(<ToolCallCard conversationId="c1" use={use} result={result} live={undefined} turnRunning={false} />);
  return screen.getByRole('article', { name: 'Call of read_file' });
}

describe('a long tool result in its card', () => {
  it('says what the model saw of a capped result, shows only the start of the text, and opens the whole in a virtualized viewer', async () => {
    const card = mount({
      type: 'tool_result',
      toolUseId: use.id,
      content: [{ type: 'text', text: FIVE_MB }],
      isError: false,
      capped: { limitTokens: 10_000, shownChars: 38_500, totalChars: FIVE_MB.length },
    });
    const note = await within(card).findByRole('note', { name: 'Cut for the model' });
    expect(note.textContent).toContain(`The model saw 38,500 of ${FIVE_MB.length.toLocaleString('en-US')} characters`);
    expect(note.textContent).toContain('over the limit of 10,000 tokens');
    // The card holds the start only, not 5 MB.
    expect(card.querySelector('pre.content-text')?.textContent).toHaveLength(PREVIEW_CHARS);
    expect(card.textContent).toContain(
      `Showing the first 20,000 of ${FIVE_MB.length.toLocaleString('en-US')} characters.`,
    );

    fireEvent.click(within(note).getByRole('button', { name: 'Open the whole result' }));
    const dialog = await screen.findByRole('dialog', { name: 'Whole result of read_file' });
    expect(dialog.textContent).toContain(`${FIVE_MB.length.toLocaleString('en-US')} characters, 100,000 lines`);
    // Virtualized: a handful of rows in the DOM, not 100,000.
    await waitFor(() => expect(dialog.querySelectorAll('.result-viewer-row').length).toBeGreaterThan(0));
    expect(dialog.querySelectorAll('.result-viewer-row').length).toBeLessThan(200);
    expect(dialog.querySelector('.result-viewer-text')?.textContent).toBe(`row 000000 ${'x'.repeat(40)}`);
  });

  it('shortens a long text that was not capped (Show all opens it) and leaves a short result as it was', async () => {
    const long = 'y'.repeat(PREVIEW_CHARS + 5);
    const card = mount({
      type: 'tool_result',
      toolUseId: use.id,
      content: [
        { type: 'text', text: 'short' },
        { type: 'resource', resource: { uri: 'file:///big.txt', text: long } },
      ],
      isError: false,
    });
    await within(card).findByText('Showing the first 20,000 of 20,005 characters.');
    expect(within(card).queryByRole('note', { name: 'Cut for the model' })).toBeNull();
    expect(within(card).getByText('file:///big.txt')).toBeTruthy();
    expect(within(card).getByText('short')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Show all' }));
    expect((await screen.findByRole('dialog', { name: 'file:///big.txt' })).textContent).toContain(
      '20,005 characters, 1 lines',
    );
    cleanup();

    const small = mount({
      type: 'tool_result',
      toolUseId: use.id,
      content: [{ type: 'text', text: 'all of it' }],
      isError: false,
    });
    expect(within(small).getByText('all of it')).toBeTruthy();
    expect(within(small).queryByRole('button', { name: 'Show all' })).toBeNull();
  });

  it('shows the first 100 parts of a result of many, and all of them in the viewer', async () => {
    const content = Array.from({ length: 5_000 }, (_, index) => ({ type: 'text' as const, text: `part ${index}` }));
    const card = mount({ type: 'tool_result', toolUseId: use.id, content, isError: false });
    await within(card).findByText('Showing the first 100 of 5,000 parts.');
    expect(card.querySelectorAll('pre.content-text')).toHaveLength(100);
    fireEvent.click(within(card).getByRole('button', { name: 'Show all parts' }));
    expect((await screen.findByRole('dialog', { name: 'Whole result of read_file' })).textContent).toContain(
      '5,000 lines',
    );
  });
});

describe('a long tool result in the person’s language', () => {
  it('words the capped note, the shortened text and the viewer’s title in Korean', async () => {
    await activateLocale('ko');
    renderWithBerth(
      <ToolCallCard
        conversationId="c1"
        use={use}
        result={{
          type: 'tool_result',
          toolUseId: use.id,
          content: [{ type: 'text', text: FIVE_MB }],
          isError: false,
          capped: { limitTokens: 10_000, shownChars: 38_500, totalChars: FIVE_MB.length },
        }}
        live={undefined}
        turnRunning={false}
      />,
    );
    const total = FIVE_MB.length.toLocaleString('en-US');
    const note = await screen.findByRole('note', { name: '모델용으로 줄임' });
    expect(note.querySelector('strong')?.textContent).toBe(`모델은 ${total}자 중 38,500자를 봤습니다`);
    expect(note.textContent).toContain('(결과가 10,000토큰 한도를 넘었습니다)');
    expect(screen.getByText('결과')).toBeTruthy();
    expect(screen.getByText(`${total}자 중 처음 20,000자를 표시합니다.`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '모두 보기' }));
    expect(await screen.findByRole('dialog', { name: 'read_file의 결과' })).toBeTruthy();
  });
});

describe('viewerRows', () => {
  it('makes a row per line and splits long lines, numbering each line once', () => {
    const rows = viewerRows(`ab\n${'z'.repeat(400)}\n\nend`);
    expect(rows.map((row) => row.line)).toEqual([1, 2, undefined, undefined, 3, 4]);
    expect(rows[1]).toEqual({ line: 2, start: 3, end: 163 });
    expect(rows[4]).toEqual({ line: 3, start: 404, end: 404 });
  });
});

describe('the usage line', () => {
  it('says what cutting long results saved', () => {
    expect(usageSummary({ inputTokens: 12_000, outputTokens: 100, cappedTokensEstimate: 1_250_000 })).toBe(
      '12,000 in · 100 out · ≈ 1,250,000 saved by cutting long results',
    );
    expect(usageSummary({ inputTokens: 12_000, outputTokens: 100 })).toBe('12,000 in · 100 out');
  });
});
