import { useEffect, useId, useRef, useState } from 'react';
import { thoughtFor } from '../../../shared/domain/reasoning';
import { ChevronRightIcon } from '../../ui/icons';

/** What a block says when the provider hid the reasoning (Anthropic's redacted_thinking). */
export const HIDDEN_REASONING =
  'The provider hid this reasoning. Berth keeps it, encrypted, and sends it back to the model, but cannot show it.';

/**
 * The model's reasoning above its answer, as Claude Desktop and ChatGPT show it: open while it streams,
 * folded once the answer starts, titled with how long it took ("Thought for 12 s"; Berth measures it).
 * A click (or Enter/Space on the title) opens it again.
 */
export function ThinkingBlock({
  text,
  redacted = false,
  durationMs,
  streaming = false,
}: {
  text: string;
  redacted?: boolean | undefined;
  /** How long it streamed (saved with the block); while it streams, the block counts itself. */
  durationMs?: number | undefined;
  /** Still arriving: open, with a running count. */
  streaming?: boolean;
}) {
  const [open, setOpen] = useState(streaming);
  const startedAt = useRef(Date.now());
  const endedAt = useRef<number | undefined>(streaming ? undefined : Date.now());
  const wasStreaming = useRef(streaming);
  const [, tick] = useState(0);
  const bodyId = useId();

  useEffect(() => {
    // The answer began: fold the thinking away, as the person now reads the answer.
    if (wasStreaming.current && !streaming) {
      endedAt.current = Date.now();
      setOpen(false);
    }
    wasStreaming.current = streaming;
    if (!streaming) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [streaming]);

  const measured = (endedAt.current ?? Date.now()) - startedAt.current;
  const title = streaming ? `Thinking… ${Math.floor(measured / 1000)} s` : thoughtFor(durationMs ?? measured);
  const body = text !== '' ? text : redacted ? HIDDEN_REASONING : 'The model gave no words for its reasoning.';
  return (
    <div className={`thinking-block${streaming ? ' thinking-live' : ''}`} data-state={open ? 'open' : 'closed'}>
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((value) => !value)}
      >
        <ChevronRightIcon className="thinking-chevron" aria-hidden="true" />
        <span className="thinking-title">{title}</span>
        {redacted ? <span className="thinking-note">· hidden by the provider</span> : null}
      </button>
      {open ? (
        <div id={bodyId} className="thinking-body" role="region" aria-label="The model’s reasoning">
          {body}
          {streaming ? <span className="cursor" aria-hidden="true" /> : null}
        </div>
      ) : null}
    </div>
  );
}
