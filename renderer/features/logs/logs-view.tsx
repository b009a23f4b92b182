import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { LogLevel, LogSource } from '../../../shared/domain';
import { useBerth, type LogRow } from '../../store';
import { Button, EmptyState, IconButton } from '../../ui/controls';
import { ArrowDownIcon, CopyIcon, LogsIcon, PauseIcon, PlayIcon, TrashIcon } from '../../ui/icons';
import {
  countNewer,
  DEFAULT_LOG_FILTER,
  formatLogLine,
  isFilterActive,
  refilter,
  type FilterResult,
  type LogFilter,
} from './log-filter';
import { LogList } from './log-list';
import { LevelPicker, SearchBox, ServerPicker, SourceToggles } from './log-toolbar';
import { errorMessage } from '../../../shared/error-message';
import { useT } from '../../i18n/use-t';
import { T } from '../../i18n/t';
import { formatNumber } from '../../i18n/format';
import { verbatim, words } from '../../i18n/words';

/** Typing pauses this long before the 200k-row filter runs again. */
const SEARCH_DEBOUNCE_MS = 150;

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * While the view is open it follows the trace: the host sends trace entries
 * only to windows that ask (every message of every server otherwise went to
 * every window, shown or not), for a while it names; the view asks again at a
 * third of that, and once on opening fetches what the host kept meanwhile.
 */
function useFollowTrace(): void {
  const followTrace = useBerth((s) => s.followTrace);
  const loadTrace = useBerth((s) => s.loadTrace);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let open = true;
    const follow = async (): Promise<void> => {
      const forMs = await followTrace();
      if (open && forMs !== undefined) timer = setTimeout(() => void follow(), forMs / 3);
    };
    // Follow first, then fetch: an entry made in between comes both ways, and the merge keeps one.
    void follow().then(() => (open ? loadTrace() : undefined));
    return () => {
      open = false;
      clearTimeout(timer);
    };
  }, [followTrace, loadTrace]);
}

export function LogsView() {
  useFollowTrace();
  const liveRows = useBerth((s) => s.logs);
  const loaded = useBerth((s) => s.logsLoaded);
  const server = useBerth((s) => s.logServer);
  const showLogsFor = useBerth((s) => s.showLogsFor);
  const clearLogs = useBerth((s) => s.clearLogs);
  const pushToast = useBerth((s) => s.pushToast);
  const t = useT();

  const [sources, setSources] = useState<readonly LogSource[]>(DEFAULT_LOG_FILTER.sources);
  const [minLevel, setMinLevel] = useState<LogLevel | undefined>();
  const [search, setSearch] = useState('');
  const text = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const [follow, setFollow] = useState(true);
  /** While paused, the view shows this snapshot; new entries only bump a counter. */
  const [frozen, setFrozen] = useState<readonly LogRow[] | undefined>();

  const filter: LogFilter = useMemo(() => ({ server, sources, minLevel, text }), [server, sources, minLevel, text]);
  const shownSource = frozen ?? liveRows;
  // Deferred so a flood of batches never blocks typing or scrolling.
  const deferredSource = useDeferredValue(shownSource);
  const lastResult = useRef<FilterResult | undefined>(undefined);
  const rows = useMemo(() => {
    lastResult.current = refilter(lastResult.current, deferredSource, filter);
    return lastResult.current.rows;
  }, [deferredSource, filter]);
  const frozenLastSeq = frozen && frozen.length > 0 ? frozen[frozen.length - 1]!.seq : -1;
  const newCount = useMemo(
    () => (frozen ? countNewer(liveRows, filter, frozenLastSeq) : 0),
    [frozen, liveRows, filter, frozenLastSeq],
  );

  const resetFilters = () => {
    setSources(DEFAULT_LOG_FILTER.sources);
    setMinLevel(undefined);
    setSearch('');
  };

  async function copyVisible() {
    const textToCopy = rows.map(formatLogLine).join('\n');
    try {
      await navigator.clipboard.writeText(textToCopy);
      pushToast({
        tone: 'success',
        title: words('logs.view.copied', { count: rows.length }),
      });
    } catch (error) {
      pushToast({ tone: 'error', title: words('logs.view.copyFailed'), message: verbatim(errorMessage(error)) });
    }
  }

  return (
    <div className="logs-view">
      <div className="log-toolbar" role="toolbar" aria-label={t('logs.view.filters')}>
        <ServerPicker value={server} onChange={showLogsFor} />
        <SourceToggles value={sources} onChange={setSources} />
        <LevelPicker value={minLevel} onChange={setMinLevel} />
        <SearchBox value={search} onChange={setSearch} />
        <div className="spacer" />
        <Button
          size="sm"
          icon={frozen ? <PlayIcon /> : <PauseIcon />}
          aria-pressed={frozen !== undefined}
          onClick={() => setFrozen(frozen ? undefined : liveRows)}
        >
          {frozen
            ? newCount > 0
              ? t('logs.view.resumeNew', { count: formatNumber(newCount) })
              : t('logs.view.resume')
            : t('logs.view.pause')}
        </Button>
        <IconButton
          label={t('logs.view.copy', { count: formatNumber(rows.length) })}
          icon={<CopyIcon />}
          disabled={rows.length === 0}
          onClick={() => void copyVisible()}
        />
        <IconButton
          label={server ? t('logs.view.clearServer', { server }) : t('logs.view.clearAll')}
          icon={<TrashIcon />}
          onClick={() => {
            setFrozen(undefined);
            void clearLogs(server);
          }}
        />
      </div>

      <div className="log-panel">
        {!loaded ? (
          <div className="view-loading">{t('logs.view.loading')}</div>
        ) : liveRows.length === 0 && !frozen ? (
          <div className="view-center">
            <EmptyState icon={<LogsIcon />} title={t('logs.view.empty.title')}>
              <p>
                <T id="logs.view.empty.what" components={{ strong: <strong /> }} />
              </p>
              <p>{t('logs.view.empty.how')}</p>
            </EmptyState>
          </div>
        ) : rows.length === 0 ? (
          <div className="view-center">
            <EmptyState
              icon={<LogsIcon />}
              title={t('logs.view.noMatch.title')}
              actions={
                isFilterActive(filter) ? (
                  <Button onClick={resetFilters}>{t('logs.view.noMatch.reset')}</Button>
                ) : undefined
              }
            >
              <p>{server ? t('logs.view.noMatch.server', { server }) : t('logs.view.noMatch.all')}</p>
            </EmptyState>
          </div>
        ) : (
          <LogList
            rows={rows}
            follow={follow && !frozen}
            onFollowChange={setFollow}
            showServer={server === undefined}
          />
        )}
        {loaded && rows.length > 0 && (!follow || frozen) ? (
          <Button
            className="jump-latest"
            variant="primary"
            size="sm"
            icon={<ArrowDownIcon />}
            onClick={() => {
              setFrozen(undefined);
              setFollow(true);
            }}
          >
            {t('logs.view.jump')}
          </Button>
        ) : null}
      </div>
      <footer className="log-status" role="status" aria-label={t('logs.view.summary')} aria-live="polite">
        <span>
          {t('logs.view.shownOf', {
            shown: formatNumber(rows.length),
            total: formatNumber((frozen ?? liveRows).length),
          })}
        </span>
        {frozen ? (
          <span className="paused-note">{t('logs.view.paused', { count: formatNumber(newCount) })}</span>
        ) : null}
        {!frozen && !follow ? <span className="muted">{t('logs.view.notFollowing')}</span> : null}
      </footer>
    </div>
  );
}
