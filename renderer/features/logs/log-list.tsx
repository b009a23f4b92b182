import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { LogRow } from '../../store';
import { ChevronRightIcon } from '../../ui/icons';
import { formatBytes, formatTime, prettyBody, traceDetail } from './log-filter';
import { LogDenialAction, isDenialLine } from '../sandbox';
import { useT, type Translate } from '../../i18n/use-t';
import type { MessageId } from '../../i18n/message-ids';

/** Every row is this tall; only expanded trace rows grow, by a height computed from their body. */
export const ROW_HEIGHT = 24;
const BODY_LINE_HEIGHT = 18;
const BODY_MAX_LINES = 24;
const BODY_PADDING = 16;
/** How close to the bottom (px) still counts as "at the latest entry". */
const FOLLOW_SLACK = ROW_HEIGHT * 2;

export interface LogListProps {
  rows: readonly LogRow[];
  follow: boolean;
  onFollowChange: (follow: boolean) => void;
  showServer: boolean;
}

/** The virtualized log: fixed-height monospace rows, follow-tail, expandable trace rows. */
export function LogList({ rows, follow, onFollowChange, showServer }: LogListProps) {
  const t = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState<ReadonlyMap<number, string>>(new Map());

  const toggle = useCallback(
    (row: LogRow) => {
      const opening = !expanded.has(row.seq);
      // Someone reading a message body does not want it scrolled away by new entries.
      if (opening) onFollowChange(false);
      setExpanded((current) => {
        const next = new Map(current);
        if (next.has(row.seq)) next.delete(row.seq);
        else next.set(row.seq, prettyBody(row.body ?? row.text));
        return next;
      });
    },
    [expanded, onFollowChange],
  );

  // Stable per rows array: a new key function makes the virtualizer re-measure everything.
  const getItemKey = useCallback((index: number) => rows[index]!.seq, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const body = expanded.get(rows[index]!.seq);
      if (body === undefined) return ROW_HEIGHT;
      const lines = Math.min(BODY_MAX_LINES, body.split('\n').length);
      return ROW_HEIGHT + lines * BODY_LINE_HEIGHT + BODY_PADDING;
    },
    getItemKey,
    overscan: 20,
  });

  // Heights depend on which rows are expanded; the virtualizer caches sizes, so tell it.
  useLayoutEffect(() => virtualizer.measure(), [expanded, virtualizer]);

  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [follow, rows, totalSize]);

  const lastTop = useRef(0);
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK;
    if (follow && !atBottom && el.scrollTop < lastTop.current) onFollowChange(false);
    else if (!follow && atBottom && el.scrollTop > lastTop.current) onFollowChange(true);
    lastTop.current = el.scrollTop;
  };

  return (
    <div
      ref={scrollRef}
      className="log-scroll"
      onScroll={onScroll}
      tabIndex={0}
      role="log"
      aria-label={t('logs.list.label')}
      aria-live="off"
    >
      <div className="log-canvas" style={{ height: totalSize }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <LogLine
              key={item.key}
              row={row}
              top={item.start}
              height={item.size}
              showServer={showServer}
              body={expanded.get(row.seq)}
              onToggle={toggle}
            />
          );
        })}
      </div>
    </div>
  );
}

interface LogLineProps {
  row: LogRow;
  top: number;
  height: number;
  showServer: boolean;
  body: string | undefined;
  onToggle: (row: LogRow) => void;
}

const LogLine = memo(function LogLine({ row, top, height, showServer, body, onToggle }: LogLineProps) {
  const isTrace = row.source === 'trace';
  const t = useT();
  const style = useMemo(() => ({ transform: `translate(0,${top}px)`, height }), [top, height]);
  return (
    <div
      className={clsx(
        'log-row',
        `src-${row.source}`,
        row.level && `lvl-${row.level}`,
        body !== undefined && 'expanded',
      )}
      style={style}
      role="article"
      aria-label={entryLabel(t, row)}
      data-seq={row.seq}
      data-source={row.source}
    >
      <div className="log-line">
        {isTrace ? (
          <button
            type="button"
            className="log-expand"
            aria-expanded={body !== undefined}
            aria-label={
              row.method
                ? t(body !== undefined ? 'logs.entry.hideJson' : 'logs.entry.showJson', { method: row.method })
                : t(body !== undefined ? 'logs.entry.hideMessageJson' : 'logs.entry.showMessageJson')
            }
            onClick={() => onToggle(row)}
          >
            <ChevronRightIcon />
          </button>
        ) : (
          <span className="log-expand-spacer" />
        )}
        <span className="log-time">{formatTime(row.time)}</span>
        {showServer ? (
          <span className="log-server" title={row.server}>
            {row.server}
          </span>
        ) : null}
        <span className={clsx('log-source', `tag-${row.source}`)}>{SOURCE_TAG[row.source]}</span>
        {row.level ? <span className={clsx('log-level', `lvl-${row.level}`)}>{row.level}</span> : null}
        {isTrace ? <TraceSummary row={row} /> : null}
        <span className="log-text">
          {row.logger ? <span className="log-logger">[{row.logger}] </span> : null}
          {isTrace ? traceDetail(row) : row.text}
        </span>
        {isDenialLine(row) ? <LogDenialAction server={row.server} text={row.text} /> : null}
      </div>
      {body !== undefined ? (
        <pre className="log-body" role="code" style={{ maxHeight: BODY_MAX_LINES * BODY_LINE_HEIGHT + BODY_PADDING }}>
          {body}
        </pre>
      ) : null}
    </div>
  );
});

/** What a screen reader announces for an entry (and what e2e page objects find it by). */
const ENTRY_LABEL: Record<Exclude<LogRow['source'], 'trace'>, MessageId> = {
  stderr: 'logs.entry.stderr',
  notification: 'logs.entry.notification',
  host: 'logs.entry.host',
  app: 'logs.entry.app',
};

function entryLabel(t: Translate, row: LogRow): string {
  if (row.source !== 'trace') return t(ENTRY_LABEL[row.source]);
  const inbound = row.direction === 'in';
  if (row.method) return t(inbound ? 'logs.entry.traceInMethod' : 'logs.entry.traceOutMethod', { method: row.method });
  return t(inbound ? 'logs.entry.traceIn' : 'logs.entry.traceOut');
}

const SOURCE_TAG: Record<LogRow['source'], string> = {
  stderr: 'stderr',
  notification: 'log',
  trace: 'trace',
  host: 'berth',
  app: 'app',
};

function TraceSummary({ row }: { row: LogRow }) {
  const t = useT();
  return (
    <span className="trace-summary">
      <span
        className={clsx('trace-dir', row.direction === 'in' ? 'dir-in' : 'dir-out')}
        title={row.direction === 'in' ? t('logs.entry.fromServer') : t('logs.entry.toServer')}
      >
        {row.direction === 'in' ? '←' : '→'}
      </span>
      {row.method ? <span className="trace-method">{row.method}</span> : null}
      {row.id !== undefined ? <span className="trace-id">#{row.id}</span> : null}
      {row.size !== undefined ? <span className="trace-size">{formatBytes(row.size)}</span> : null}
    </span>
  );
}
