import clsx from 'clsx';
import { useEffect, useId, useRef, useState } from 'react';
import { ChevronRightIcon } from '../../ui/icons';
import { useT, type Translate } from '../../i18n/use-t';

/** "Thought for 12 s", "Thought for 2 min 5 s": the words of shared/domain/reasoning.ts thoughtFor, in the person's language. */
function thoughtFor(durationMs: number, t: Translate): string {
  const seconds = Math.max(1, Math.round(durationMs / 1000));
  if (seconds <= 90) return t('chat.thinking.thoughtSeconds', { seconds });
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0
    ? t('chat.thinking.thoughtMinutes', { minutes })
    : t('chat.thinking.thoughtMinutesSeconds', { minutes, seconds: rest });
}

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
  const t = useT();
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
  const title = streaming
    ? t('chat.thinking.live', { seconds: Math.floor(measured / 1000) })
    : thoughtFor(durationMs ?? measured, t);
  // Hidden: the provider's redacted_thinking (Anthropic), kept and sent back but unreadable.
  const body = text !== '' ? text : t(redacted ? 'chat.thinking.hidden' : 'chat.thinking.empty');
  return (
    <div className={clsx('thinking-block', streaming && 'thinking-live')} data-state={open ? 'open' : 'closed'}>
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((value) => !value)}
      >
        <ChevronRightIcon className="thinking-chevron" aria-hidden="true" />
        <span className="thinking-title">{title}</span>
        {redacted ? <span className="thinking-note">{t('chat.thinking.hiddenNote')}</span> : null}
      </button>
      {open ? (
        <div id={bodyId} className="thinking-body" role="region" aria-label={t('chat.thinking.region')}>
          {body}
          {streaming ? <span className="cursor" aria-hidden="true" /> : null}
        </div>
      ) : null}
    </div>
  );
}
