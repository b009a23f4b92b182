import type { ReactNode } from 'react';
import type { SearchSnippet } from '../../../shared/contract/chat';
import { useT } from '../../i18n/use-t';

/** The snippet's text with each match in a <mark>; offsets outside the text (a bad answer) are clamped, never thrown on. */
export function highlightParts(text: string, highlights: SearchSnippet['highlights']): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of highlights) {
    const from = Math.max(at, Math.min(start, text.length));
    const to = Math.max(from, Math.min(end, text.length));
    if (to === from) continue;
    if (from > at) parts.push(text.slice(at, from));
    parts.push(<mark key={from}>{text.slice(from, to)}</mark>);
    at = to;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Where a search found its words in a conversation: whose words, and the stretch around the first hit. */
export function SearchSnippetText({ snippet }: { snippet: SearchSnippet }) {
  const t = useT();
  const who =
    snippet.role === 'user'
      ? t('chat.list.snippetUser')
      : snippet.role === 'assistant'
        ? t('chat.list.snippetAssistant')
        : t('chat.list.snippetTool');
  return (
    <span className="conversation-snippet">
      <span className="conversation-snippet-who">{who}</span> {snippet.cutStart ? '…' : ''}
      {highlightParts(snippet.text, snippet.highlights)}
      {snippet.cutEnd ? '…' : ''}
    </span>
  );
}
