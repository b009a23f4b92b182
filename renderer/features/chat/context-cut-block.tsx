import type { ContextCut } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Markdown } from './markdown';

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * Where the conversation was compacted or cut, under the last message it left out: the messages
 * above stay saved and shown; the model now gets the summary in their place (or nothing, for a drop).
 */
export function ContextCutBlock({ cut }: { cut: ContextCut }) {
  const messages = `${n(cut.messageCount)} ${cut.messageCount === 1 ? 'message' : 'messages'}`;
  const modelName = useBerth((s) => s.settings?.models.find((model) => model.id === cut.model)?.label ?? cut.model);
  return (
    <div className="context-cut" role="note" data-testid="context-cut">
      <p className="context-cut-title">
        {cut.kind === 'compact'
          ? `Compacted: the model now remembers the ${messages} above as a summary`
          : `Left out: the model no longer sees the ${messages} above`}
      </p>
      <p className="context-cut-facts">
        {`The context window was nearly full (about ${n(cut.tokensBefore)} tokens); now about ${n(cut.tokensAfter)}. `}
        {cut.kind === 'compact'
          ? `The summary was written by ${cut.api !== undefined ? `Anthropic's own context management for ${modelName}` : modelName}. The original messages stay saved here.`
          : 'They stay saved here; the model is told they were left out.'}
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
