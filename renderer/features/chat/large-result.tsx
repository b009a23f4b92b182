import clsx from 'clsx';
import { lazy, Suspense, useState } from 'react';
import type { ChatToolResultBlock, McpContentBlock } from '../../../shared/domain/chat';
import { wholeResultText } from '../../../shared/domain/result-text';
import { Button, Chip } from '../../ui/controls';
import { McpContentView } from './content-blocks';

// A tool result too long to put in the card at once, or one Berth cut for the
// model (app/chat/results). Loaded on demand (tool-call-card.tsx): the first screen
// never carries it. The card shows the start of each long text and says how
// much there is; the whole opens in a virtualized viewer.

const ResultViewer = lazy(() => import('./result-viewer'));

/** Characters of one text the card shows before "Show all": a 5 MB text in the DOM makes the chat crawl. */
export const PREVIEW_CHARS = 20_000;

/** Blocks the card shows before "Show all": a result of 20,000 small blocks would be 20,000 elements. */
export const PREVIEW_BLOCKS = 100;

const n = (value: number): string => value.toLocaleString('en-US');

/** The text of a block the card may have to shorten (text, or an embedded resource's text). */
function longText(block: McpContentBlock): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string')
    return block.resource.text;
  return undefined;
}

interface Viewing {
  title: string;
  text: string;
}

function ShortenedText({ text, uri, onShowAll }: { text: string; uri: string | undefined; onShowAll: () => void }) {
  return (
    <div className={clsx(uri !== undefined && 'content-resource')}>
      {uri !== undefined ? (
        <div className="content-resource-head">
          <Chip tone="accent">resource</Chip>
          <code className="wrap">{uri}</code>
        </div>
      ) : null}
      {/* It scrolls: focusable, so the keyboard can scroll it too. */}
      <pre className="content-text" tabIndex={0} role="region" aria-label={`Start of ${uri ?? 'the result'}`}>
        {text.slice(0, PREVIEW_CHARS)}
      </pre>
      <div className="result-more">
        <span className="muted small">
          Showing the first {n(PREVIEW_CHARS)} of {n(text.length)} characters.
        </span>
        <Button size="sm" onClick={onShowAll}>
          Show all
        </Button>
      </div>
    </div>
  );
}

/** The body of a long or capped result's card: the note about what the model saw, each block (long texts shortened), and the viewer. */
export default function LargeResult({
  result,
  server,
  tool,
}: {
  result: ChatToolResultBlock;
  server: string | undefined;
  tool: string;
}) {
  const [viewing, setViewing] = useState<Viewing>();
  const { capped } = result;
  return (
    <div className={clsx('tool-result', result.isError && 'tool-result-error')}>
      {result.isError ? (
        <strong className="tool-result-label">The tool reported an error</strong>
      ) : (
        <span className="args-caption">Result</span>
      )}
      {capped !== undefined ? (
        <div className="result-capped" role="note" aria-label="Cut for the model">
          <p>
            <strong>
              The model saw {n(capped.shownChars)} of {n(capped.totalChars)} characters
            </strong>{' '}
            — the beginning and the end, with a note from Berth (the result was over the limit of{' '}
            {n(capped.limitTokens)} tokens). It can ask Berth for the rest, part by part.
          </p>
          <Button
            size="sm"
            onClick={() => setViewing({ title: `Whole result of ${tool}`, text: wholeResultText(result) })}
          >
            Open the whole result
          </Button>
        </div>
      ) : null}
      {result.content.slice(0, PREVIEW_BLOCKS).map((block, index) => {
        const text = longText(block);
        if (text === undefined || text.length <= PREVIEW_CHARS)
          return <McpContentView key={index} block={block} server={server} />;
        const uri = block.type === 'resource' ? block.resource.uri : undefined;
        return (
          <ShortenedText
            key={index}
            text={text}
            uri={uri}
            onShowAll={() => setViewing({ title: uri ?? `Result of ${tool}`, text })}
          />
        );
      })}
      {result.content.length > PREVIEW_BLOCKS ? (
        <div className="result-more">
          <span className="muted small">
            Showing the first {n(PREVIEW_BLOCKS)} of {n(result.content.length)} parts.
          </span>
          <Button
            size="sm"
            onClick={() => setViewing({ title: `Whole result of ${tool}`, text: wholeResultText(result) })}
          >
            Show all parts
          </Button>
        </div>
      ) : null}
      {result.structuredContent !== undefined ? (
        <div className="structured">
          <span className="args-caption">Structured content</span>
          <pre className="code-block">{JSON.stringify(result.structuredContent, null, 2).slice(0, PREVIEW_CHARS)}</pre>
        </div>
      ) : null}
      {viewing !== undefined ? (
        <Suspense fallback={null}>
          <ResultViewer title={viewing.title} text={viewing.text} onClose={() => setViewing(undefined)} />
        </Suspense>
      ) : null}
    </div>
  );
}
