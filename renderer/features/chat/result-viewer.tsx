import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { Button } from '../../ui/controls';
import { Dialog, DialogDescription, DialogHeader } from '../../ui/dialog';
import { useT } from '../../i18n/use-t';
import { formatNumber } from '../../i18n/format';

// The whole of a long tool result, in a dialog. Rows are the text's lines,
// long lines split into pieces, rendered virtualized with a fixed height: a
// 5 MB result opens at once and scrolls smoothly, with the DOM holding only the
// rows in view.

/** Characters of one row: a longer line continues on the next rows (its number shown once). */
const ROW_CHARS = 160;
const ROW_HEIGHT = 18;

interface Row {
  /** The line's number on its first row; undefined on the rows that continue it. */
  line: number | undefined;
  start: number;
  end: number;
}

/** Rows for `text`: offsets into it, not copies, so a 5 MB text costs a few arrays of numbers. */
export function viewerRows(text: string): Row[] {
  const rows: Row[] = [];
  let line = 1;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    for (let at = start; at === start || at < end; at += ROW_CHARS)
      rows.push({ line: at === start ? line : undefined, start: at, end: Math.min(end, at + ROW_CHARS) });
    if (newline === -1) break;
    start = newline + 1;
    line += 1;
  }
  return rows;
}

export default function ResultViewer({ title, text, onClose }: { title: string; text: string; onClose: () => void }) {
  const t = useT();
  const rows = useMemo(() => viewerRows(text), [text]);
  const lines = useMemo(() => rows.reduce((count, row) => (row.line === undefined ? count : count + 1), 0), [rows]);
  const [copied, setCopied] = useState(false);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      className="dialog-result"
      aria-describedby="result-viewer-description"
    >
      <DialogHeader title={title} />
      <div className="result-viewer-bar">
        <DialogDescription id="result-viewer-description" className="muted small">
          {t('chat.viewer.facts', { chars: formatNumber(text.length), lines: formatNumber(lines) })}
        </DialogDescription>
        <Button
          size="sm"
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {t(copied ? 'chat.markdown.copied' : 'chat.viewer.copyAll')}
        </Button>
      </div>
      <ViewerRows text={text} rows={rows} />
    </Dialog>
  );
}

/** Its own component: the dialog's portal mounts the content a render later, and the virtualizer must find its scroller when it mounts. */
function ViewerRows({ text, rows }: { text: string; rows: readonly Row[] }) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  return (
    <div ref={scroller} className="result-viewer" role="region" aria-label={t('chat.viewer.region')} tabIndex={0}>
      <div className="result-viewer-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as Row;
          return (
            <div key={item.key} className="result-viewer-row" style={{ transform: `translateY(${item.start}px)` }}>
              <span className="result-viewer-line" aria-hidden="true">
                {row.line ?? ''}
              </span>
              <span className="result-viewer-text">{text.slice(row.start, row.end)}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
