import clsx from 'clsx';
import { lazy, Suspense, useState } from 'react';
import type { ChatToolResultBlock, McpContentBlock } from '../../../shared/domain/chat';
import { wholeResultText } from '../../../shared/domain/result-text';
import { Button, Chip } from '../../ui/controls';
import { McpContentView } from './content-blocks';
import { useWholeResult, type WholeResultState } from './use-whole-result';

// A tool result too long to put in the card at once, or one Berth cut for the
// model (app/chat/results). Loaded on demand (tool-call-card.tsx): the first screen
// never carries it. The card shows the start of each long text and says how
// much there is; the whole opens in a virtualized viewer. A big result
// (`whole` set) arrives as a preview: the viewer's text is read from the host
// in pages when the person opens it.

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

function ShortenedText({
  text,
  total,
  uri,
  onShowAll,
}: {
  text: string;
  /** The text's whole length; undefined when it is one part of a preview whose parts' lengths are not known. */
  total: number | undefined;
  uri: string | undefined;
  onShowAll: () => void;
}) {
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
          {total === undefined
            ? `Showing the first ${n(PREVIEW_CHARS)} characters of this part.`
            : `Showing the first ${n(PREVIEW_CHARS)} of ${n(total)} characters.`}
        </span>
        <Button size="sm" onClick={onShowAll}>
          Show all
        </Button>
      </div>
    </div>
  );
}

/** What a big result's card says while its whole text loads, or why it could not. */
function WholeResultProgress({ state }: { state: WholeResultState }) {
  if (state.kind === 'failed')
    return (
      <p className="error small" role="alert">
        Could not open the whole result: {state.message}
      </p>
    );
  if (state.kind === 'idle') return null;
  const percent = state.total === undefined || state.total === 0 ? 0 : Math.floor((state.read / state.total) * 100);
  return (
    <div className="result-more" role="status">
      <progress max={100} value={percent} aria-label="Loading the whole result" />
      <span className="muted small">
        Loading the whole result… {percent}%{state.total === undefined ? '' : ` of ${n(state.total)} characters`}
      </span>
    </div>
  );
}

/** The body of a long or capped result's card: the note about what the model saw, each block (long texts shortened), and the viewer. */
export default function LargeResult({
  result,
  server,
  tool,
  conversationId,
}: {
  result: ChatToolResultBlock;
  server: string | undefined;
  tool: string;
  conversationId: string;
}) {
  const [viewing, setViewing] = useState<Viewing>();
  const { capped, whole } = result;
  const paging = useWholeResult(conversationId, result.toolUseId);
  const loading = paging.state.kind === 'loading';
  // A preview holds only the start: every way to "all of it" reads the whole from the host.
  const openAll = (title: string, text: () => string): void => {
    if (whole === undefined) {
      setViewing({ title, text: text() });
      return;
    }
    void paging.load().then((loaded) => {
      if (loaded !== undefined) setViewing({ title: `Whole result of ${tool}`, text: loaded });
    });
  };
  const openWhole = (): void => openAll(`Whole result of ${tool}`, () => wholeResultText(result));
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
          <Button size="sm" disabled={loading} onClick={openWhole}>
            Open the whole result
          </Button>
        </div>
      ) : null}
      {whole !== undefined ? (
        <div className="result-capped" role="note" aria-label="Preview of a long result">
          {whole.missing === true ? (
            <p>
              <strong>Only the start of this result is left</strong> — its whole copy, kept beside the conversation, is
              missing or damaged.
            </p>
          ) : (
            <p>
              <strong>
                The start of a long result: {n(whole.chars)} characters in {n(whole.blocks)}{' '}
                {whole.blocks === 1 ? 'part' : 'parts'}
              </strong>{' '}
              — kept whole beside the conversation, and read when you open it.
            </p>
          )}
          {capped === undefined && whole.missing !== true ? (
            <Button size="sm" disabled={loading} onClick={openWhole}>
              Open the whole result
            </Button>
          ) : null}
        </div>
      ) : null}
      <WholeResultProgress state={paging.state} />
      {result.content.slice(0, PREVIEW_BLOCKS).map((block, index) => {
        const text = longText(block);
        // A preview's text at the preview's length was cut from a longer one (result-preview.ts).
        const cut = whole !== undefined && text !== undefined && text.length >= PREVIEW_CHARS;
        if (text === undefined || (text.length <= PREVIEW_CHARS && !cut))
          return <McpContentView key={index} block={block} server={server} />;
        const uri = block.type === 'resource' ? block.resource.uri : undefined;
        return (
          <ShortenedText
            key={index}
            text={text}
            total={
              whole === undefined ? text.length : whole.blocks === 1 && uri === undefined ? whole.chars : undefined
            }
            uri={uri}
            onShowAll={() => openAll(uri ?? `Result of ${tool}`, () => text)}
          />
        );
      })}
      {(whole?.blocks ?? result.content.length) > PREVIEW_BLOCKS ? (
        <div className="result-more">
          <span className="muted small">
            Showing the first {n(PREVIEW_BLOCKS)} of {n(whole?.blocks ?? result.content.length)} parts.
          </span>
          <Button size="sm" disabled={loading} onClick={openWhole}>
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
