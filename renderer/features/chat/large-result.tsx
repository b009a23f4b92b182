import clsx from 'clsx';
import { lazy, Suspense, useState } from 'react';
import type { ChatToolResultBlock, McpContentBlock } from '../../../shared/domain/chat';
import { wholeResultText } from '../../../shared/domain/result-text';
import { Button, Chip } from '../../ui/controls';
import { McpContentView } from './content-blocks';
import { useWholeResult, type WholeResultState } from './use-whole-result';
import { formatNumber } from '../../i18n/format';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import { verbatim, words, wordsText, type Words } from '../../i18n/words';

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

const n = (value: number): string => formatNumber(value);

/** The text of a block the card may have to shorten (text, or an embedded resource's text). */
function longText(block: McpContentBlock): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string')
    return block.resource.text;
  return undefined;
}

interface Viewing {
  title: Words;
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
  const t = useT();
  return (
    <div className={clsx(uri !== undefined && 'content-resource')}>
      {uri !== undefined ? (
        <div className="content-resource-head">
          <Chip tone="accent">{t('chat.content.resource')}</Chip>
          <code className="wrap">{uri}</code>
        </div>
      ) : null}
      {/* It scrolls: focusable, so the keyboard can scroll it too. */}
      <pre
        className="content-text"
        tabIndex={0}
        role="region"
        aria-label={uri !== undefined ? t('chat.large.startOf', { uri }) : t('chat.large.startOfResult')}
      >
        {text.slice(0, PREVIEW_CHARS)}
      </pre>
      <div className="result-more">
        <span className="muted small">
          {total === undefined
            ? t('chat.large.shownPart', { shown: n(PREVIEW_CHARS) })
            : t('chat.large.shown', { shown: n(PREVIEW_CHARS), total: n(total) })}
        </span>
        <Button size="sm" onClick={onShowAll}>
          {t('chat.large.showAll')}
        </Button>
      </div>
    </div>
  );
}

/** What a big result's card says while its whole text loads, or why it could not. */
function WholeResultProgress({ state }: { state: WholeResultState }) {
  const t = useT();
  if (state.kind === 'failed')
    return (
      <p className="error small" role="alert">
        {t('chat.large.openFailed', { message: failureText(state.failure) })}
      </p>
    );
  if (state.kind === 'idle') return null;
  const percent = state.total === undefined || state.total === 0 ? 0 : Math.floor((state.read / state.total) * 100);
  const shown = formatNumber(percent / 100, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <div className="result-more" role="status">
      <progress max={100} value={percent} aria-label={t('chat.large.loadingLabel')} />
      <span className="muted small">
        {state.total === undefined
          ? t('chat.large.loading', { percent: shown })
          : t('chat.large.loadingOf', { percent: shown, total: n(state.total) })}
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
  const t = useT();
  const { capped, whole } = result;
  const paging = useWholeResult(conversationId, result.toolUseId);
  const loading = paging.state.kind === 'loading';
  // A preview holds only the start: every way to "all of it" reads the whole from the host.
  const openAll = (title: Words, text: () => string): void => {
    if (whole === undefined) {
      setViewing({ title, text: text() });
      return;
    }
    void paging.load().then((loaded) => {
      if (loaded !== undefined) setViewing({ title: words('chat.large.wholeTitle', { tool }), text: loaded });
    });
  };
  const openWhole = (): void => openAll(words('chat.large.wholeTitle', { tool }), () => wholeResultText(result));
  return (
    <div className={clsx('tool-result', result.isError && 'tool-result-error')}>
      {result.isError ? (
        <strong className="tool-result-label">{t('chat.call.toolError')}</strong>
      ) : (
        <span className="args-caption">{t('chat.call.result')}</span>
      )}
      {capped !== undefined ? (
        <div className="result-capped" role="note" aria-label={t('chat.large.cutLabel')}>
          <p>
            <T
              id="chat.large.capped"
              values={{ shown: n(capped.shownChars), total: n(capped.totalChars), limit: n(capped.limitTokens) }}
              components={{ strong: <strong /> }}
            />
          </p>
          <Button size="sm" disabled={loading} onClick={openWhole}>
            {t('chat.large.openWhole')}
          </Button>
        </div>
      ) : null}
      {whole !== undefined ? (
        <div className="result-capped" role="note" aria-label={t('chat.large.previewLabel')}>
          {whole.missing === true ? (
            <p>
              <T id="chat.large.missing" components={{ strong: <strong /> }} />
            </p>
          ) : (
            <p>
              <T
                id="chat.large.preview"
                values={{ chars: n(whole.chars), blocks: whole.blocks }}
                components={{ strong: <strong /> }}
              />
            </p>
          )}
          {capped === undefined && whole.missing !== true ? (
            <Button size="sm" disabled={loading} onClick={openWhole}>
              {t('chat.large.openWhole')}
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
            onShowAll={() =>
              openAll(uri !== undefined ? verbatim(uri) : words('chat.large.resultTitle', { tool }), () => text)
            }
          />
        );
      })}
      {(whole?.blocks ?? result.content.length) > PREVIEW_BLOCKS ? (
        <div className="result-more">
          <span className="muted small">
            {t('chat.large.partsShown', {
              shown: n(PREVIEW_BLOCKS),
              total: n(whole?.blocks ?? result.content.length),
            })}
          </span>
          <Button size="sm" disabled={loading} onClick={openWhole}>
            {t('chat.large.showAllParts')}
          </Button>
        </div>
      ) : null}
      {result.structuredContent !== undefined ? (
        <div className="structured">
          <span className="args-caption">{t('chat.call.structured')}</span>
          <pre className="code-block">{JSON.stringify(result.structuredContent, null, 2).slice(0, PREVIEW_CHARS)}</pre>
        </div>
      ) : null}
      {viewing !== undefined ? (
        <Suspense fallback={null}>
          <ResultViewer title={wordsText(viewing.title, t)} text={viewing.text} onClose={() => setViewing(undefined)} />
        </Suspense>
      ) : null}
    </div>
  );
}
