import { lazy, memo, Suspense } from 'react';

// The Markdown stack (micromark, mdast, hast, lowlight and its grammars) is about a third of
// the renderer's JavaScript; loading it on demand keeps it out of the first screen's bundle.
// Until it arrives (once per session, a few milliseconds from the local host) the text shows
// as plain wrapped text, so nothing is hidden while it loads.
const MarkdownRenderer = lazy(async () => ({ default: (await import('./markdown-renderer')).MarkdownRenderer }));

/**
 * The model's Markdown: GitHub tables, task lists, strikethrough, highlighted code; no raw HTML.
 * `baseUri` is the address of the document the text came from (a resource), against which its relative links resolve.
 */
export const Markdown = memo(function Markdown({ text, baseUri }: { text: string; baseUri?: string }) {
  return (
    <Suspense fallback={<div className="markdown markdown-loading">{text}</div>}>
      <MarkdownRenderer text={text} {...(baseUri !== undefined ? { baseUri } : {})} />
    </Suspense>
  );
});
