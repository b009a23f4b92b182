import { useState } from 'react';
import type { ChatToolsView } from '../../../shared/contract/chat';
import { TOOL_SEARCH_MODES, type ToolSearchMode } from '../../../shared/domain/tool-search';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { formatNumber } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

const MODE_LABELS: Record<ToolSearchMode, MessageId> = {
  auto: 'chat.tool-search.mode.auto',
  on: 'chat.tool-search.mode.on',
  off: 'chat.tool-search.mode.off',
};

/**
 * Tool search in the tools popover: whether it is on and why, this conversation's choice, and
 * when "Automatic" starts it (for every conversation). Part of the popover's lazy body.
 */
export function ToolSearchPanel({
  conversationId,
  toolSearch,
}: {
  conversationId: string;
  toolSearch: NonNullable<ChatToolsView['toolSearch']>;
}) {
  const setMode = useBerth((s) => s.setToolSearch);
  const setThresholds = useBerth((s) => s.setToolSearchThresholds);
  const [count, setCount] = useState(String(toolSearch.thresholds.countAbove));
  const [percent, setPercent] = useState(String(Math.round(toolSearch.thresholds.shareAbove * 100)));
  const t = useT();
  const changed =
    count !== String(toolSearch.thresholds.countAbove) ||
    percent !== String(Math.round(toolSearch.thresholds.shareAbove * 100));
  return (
    <section className="tool-search-panel" aria-label={t('chat.tool-search.title')}>
      <div className="tool-search-head">
        <strong>{t('chat.tool-search.title')}</strong>
        <Chip tone={toolSearch.active ? 'accent' : 'neutral'}>
          {t(toolSearch.active ? 'chat.tool-search.on' : 'chat.tool-search.off')}
        </Chip>
        <div className="spacer" />
        <select
          className="input input-sm"
          aria-label={t('chat.tool-search.mode')}
          value={toolSearch.mode}
          onChange={(e) => void setMode(conversationId, e.target.value as ToolSearchMode)}
        >
          {TOOL_SEARCH_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(MODE_LABELS[mode])}
            </option>
          ))}
        </select>
      </div>
      <p className="small">{toolSearch.reason}</p>
      <p className="muted small">
        {t('chat.tool-search.about', {
          sent: formatNumber(toolSearch.sentTokensEstimate),
          full: formatNumber(toolSearch.fullTokensEstimate),
        })}
      </p>
      <form
        className="tool-search-thresholds small"
        onSubmit={(e) => {
          e.preventDefault();
          void setThresholds(conversationId, Number(count), Number(percent) / 100);
        }}
      >
        {/* One sentence with the two fields in it: each language puts them where its grammar wants. */}
        <T
          id="chat.tool-search.thresholds"
          components={{
            count: (
              <input
                className="input input-sm"
                type="number"
                min={1}
                max={10000}
                aria-label={t('chat.tool-search.count')}
                value={count}
                onChange={(e) => setCount(e.target.value)}
              />
            ),
            percent: (
              <input
                className="input input-sm"
                type="number"
                min={1}
                max={90}
                aria-label={t('chat.tool-search.percent')}
                value={percent}
                onChange={(e) => setPercent(e.target.value)}
              />
            ),
          }}
        />
        {changed ? (
          <Button size="sm" type="submit">
            {t('chat.tool-search.save')}
          </Button>
        ) : null}
      </form>
    </section>
  );
}
