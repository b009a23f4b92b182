import clsx from 'clsx';
import type { ContextCut } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { ChevronDownIcon, ChevronRightIcon } from '../../ui/icons';
import { Markdown } from './markdown';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

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
  const t = useT();
  const count = cut.messageCount;
  const modelName = useBerth((s) => s.settings?.models.find((model) => model.id === cut.model)?.label ?? cut.model);
  const title =
    folded === true
      ? t(cut.kind === 'compact' ? 'chat.cut.summarized' : 'chat.cut.dropped', { count })
      : t(cut.kind === 'compact' ? 'chat.cut.compacted' : 'chat.cut.leftOut', { count });
  const fate =
    cut.kind === 'compact'
      ? `${
          cut.api !== undefined
            ? t('chat.cut.byApi', { model: modelName })
            : t('chat.cut.byModel', { model: modelName })
        } ${t(folded === true ? 'chat.cut.savedFolded' : 'chat.cut.savedHere')}`
      : t(folded === true ? 'chat.cut.droppedFolded' : 'chat.cut.droppedHere');
  return (
    <div className={clsx('context-cut', folded === true && 'folded')} role="note" data-testid="context-cut">
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
            {t(folded ? 'chat.cut.show' : 'chat.cut.hide', { count })}
          </Button>
        ) : null}
      </div>
      <p className="context-cut-facts">
        {t('chat.cut.tokens', { before: formatNumber(cut.tokensBefore), after: formatNumber(cut.tokensAfter) })} {fate}
      </p>
      {cut.summary !== undefined ? (
        <details className="context-cut-summary">
          <summary>{t('chat.cut.remembers')}</summary>
          <Markdown text={cut.summary} />
        </details>
      ) : null}
    </div>
  );
}
