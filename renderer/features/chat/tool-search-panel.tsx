import { useState } from 'react';
import type { ChatToolsView } from '../../../shared/contract/chat';
import { TOOL_SEARCH_MODES, type ToolSearchMode } from '../../../shared/domain/tool-search';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';

const MODE_LABELS: Record<ToolSearchMode, string> = { auto: 'Automatic', on: 'Always on', off: 'Off' };

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
  const n = (value: number): string => value.toLocaleString('en-US');
  const changed =
    count !== String(toolSearch.thresholds.countAbove) ||
    percent !== String(Math.round(toolSearch.thresholds.shareAbove * 100));
  return (
    <section className="tool-search-panel" aria-label="Tool search">
      <div className="tool-search-head">
        <strong>Tool search</strong>
        <Chip tone={toolSearch.active ? 'accent' : 'neutral'}>{toolSearch.active ? 'On' : 'Off'}</Chip>
        <div className="spacer" />
        <select
          className="input input-sm"
          aria-label="Tool search in this conversation"
          value={toolSearch.mode}
          onChange={(e) => void setMode(conversationId, e.target.value as ToolSearchMode)}
        >
          {TOOL_SEARCH_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABELS[mode]}
            </option>
          ))}
        </select>
      </div>
      <p className="small">{toolSearch.reason}</p>
      <p className="muted small">
        {`With tool search the model gets a search tool, a load tool and the tools it loaded, instead of every definition on every request (now ≈ ${n(toolSearch.sentTokensEstimate)} of ≈ ${n(toolSearch.fullTokensEstimate)} tokens). The switches below still decide what it can find; loading runs nothing, and you approve every call as usual.`}
      </p>
      <form
        className="tool-search-thresholds small"
        onSubmit={(e) => {
          e.preventDefault();
          void setThresholds(conversationId, Number(count), Number(percent) / 100);
        }}
      >
        <span>Automatic starts, in every conversation, above</span>
        <input
          className="input input-sm"
          type="number"
          min={1}
          max={10000}
          aria-label="Tools before tool search starts"
          value={count}
          onChange={(e) => setCount(e.target.value)}
        />
        <span>tools or</span>
        <input
          className="input input-sm"
          type="number"
          min={1}
          max={90}
          aria-label="Percent of the model's context before tool search starts"
          value={percent}
          onChange={(e) => setPercent(e.target.value)}
        />
        <span>% of the model’s context.</span>
        {changed ? (
          <Button size="sm" type="submit">
            Save
          </Button>
        ) : null}
      </form>
    </section>
  );
}
