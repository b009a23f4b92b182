import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResultPage } from '../../../shared/contract/chat';
import type { Failure, Result } from '../../../shared/result';
import { useBerth } from '../../store';

// The whole of a big tool result, which the windows get only as a preview
// (app/chat/results/result-preview.ts): read from the host page by page when
// the person opens it, with how far it got.

/** Characters asked per page: a reply of ~0.5 MB keeps the bridge responsive while a 20 MiB result loads. */
export const RESULT_PAGE_CHARS = 512 * 1024;

export type WholeResultState =
  | { kind: 'idle' }
  | { kind: 'loading'; read: number; total: number | undefined }
  | { kind: 'failed'; failure: Failure };

export function useWholeResult(
  conversationId: string,
  toolUseId: string,
): { state: WholeResultState; load: () => Promise<string | undefined> } {
  const transport = useBerth((s) => s.appsTransport);
  const [state, setState] = useState<WholeResultState>({ kind: 'idle' });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const load = useCallback(async (): Promise<string | undefined> => {
    const pages: string[] = [];
    let offset: number | null = 0;
    let read = 0;
    setState({ kind: 'loading', read: 0, total: undefined });
    while (offset !== null) {
      const page: Result<ResultPage> = await transport.call('chat.readResult', {
        id: conversationId,
        toolUseId,
        offset,
        limit: RESULT_PAGE_CHARS,
      });
      // The card went away (the person left the conversation): stop asking.
      if (!mounted.current) return undefined;
      if (!page.ok) {
        setState({ kind: 'failed', failure: page });
        return undefined;
      }
      pages.push(page.value.text);
      read += page.value.text.length;
      offset = page.value.nextOffset;
      setState({ kind: 'loading', read, total: page.value.totalChars });
    }
    setState({ kind: 'idle' });
    return pages.join('');
  }, [transport, conversationId, toolUseId]);
  return { state, load };
}
