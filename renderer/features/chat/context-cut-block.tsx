import type { ContextCut } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ChevronDownIcon, ChevronRightIcon } from '../../ui/icons';
import { Markdown } from './markdown';

const n = (value: number): string => value.toLocaleString('en-US');

export interface ContextCutBlockProps {
  /** The compaction or drop (made by Berth, or by the provider's own context management). */
  cut: ContextCut;
  /**
   * Whether the messages it left out are folded behind the block (the list shows them only on demand);
   * undefined when the block cannot fold them.
   */
  folded?: boolean | undefined;
  /** Shows or folds the messages it left out again. */
  onToggleOriginals?: (() => void) | undefined;
}

/**
 * Where the conversation was compacted or cut. Folded (the default), it stands in for the messages it left
 * out — they stay saved and show on demand; unfolded, it sits under the last of them. The model now gets
 * the summary in their place (or nothing, for a drop).
 */
export function ContextCutBlock({ cut, folded, onToggleOriginals }: ContextCutBlockProps) {
  const messages = `${n(cut.messageCount)} ${cut.messageCount === 1 ? 'message' : 'messages'}`;
  const earlier = `${n(cut.messageCount)} earlier ${cut.messageCount === 1 ? 'message' : 'messages'}`;
  const modelName = useBerth((s) => s.settings?.models.find((model) => model.id === cut.model)?.label ?? cut.model);
  const title =
    folded === true
      ? cut.kind === 'compact'
        ? `${earlier} summarized`
        : `${earlier} no longer sent to the model`
      : cut.kind === 'compact'
        ? `Compacted: the model now remembers the ${messages} above as a summary`
        : `Left out: the model no longer sees the ${messages} above`;
  return (
    <div className={`context-cut${folded === true ? ' folded' : ''}`} role="note" data-testid="context-cut">
      <div className="context-cut-head">
        <p className="context-cut-title">{title}</p>
        {folded !== undefined && onToggleOriginals !== undefined ? (
          <Button
            size="sm"
            variant="ghost"
            className="context-cut-toggle"
            aria-expanded={!folded}
            icon={folded ? <ChevronRightIcon /> : <ChevronDownIcon />}
            onClick={onToggleOriginals}
          >
            {folded ? `Show ${messages}` : `Hide ${messages}`}
          </Button>
        ) : null}
      </div>
      <p className="context-cut-facts">
        {`The context window was nearly full (about ${n(cut.tokensBefore)} tokens); now about ${n(cut.tokensAfter)}. `}
        {cut.kind === 'compact'
          ? `The summary was written by ${cut.api !== undefined ? `Anthropic's own context management for ${modelName}` : modelName}. The original messages stay saved${folded === true ? ': show them to read them.' : ' here.'}`
          : `They stay saved${folded === true ? '' : ' here'}; the model is told they were left out.`}
      </p>
      {cut.summary !== undefined ? (
        <details className="context-cut-summary">
          <summary>What the model remembers</summary>
          <Markdown text={cut.summary} />
        </details>
      ) : null}
    </div>
  );
}
