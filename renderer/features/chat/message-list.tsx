import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import type { LiveTurn } from '../../store';
import { useBerth } from '../../store';
import { Button } from '../shell/controls';
import { EditIcon, RestartIcon, WarningIcon } from '../shell/icons';
import { buildTimeline, stopReasonNote, type TimelineItem } from './chat-model';
import { Markdown } from './markdown';
import { MessageAttachments } from './message-attachments';
import { ToolCallCard } from './tool-call-card';

/** Within this many pixels of the bottom, new text keeps the view pinned to the end. */
const STICK_PX = 80;

/** The conversation: person messages, replies in Markdown, tool-call cards, and the reply being streamed. */
export function MessageList({ conversation, live }: { conversation: Conversation; live: LiveTurn | undefined }) {
  const items = useMemo(() => buildTimeline(conversation.messages), [conversation.messages]);
  const scroller = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const running = live?.running === true;
  const lastItem = items.at(-1);
  const canRetry = !running && lastItem !== undefined && items.some((i) => i.kind === 'person');

  // Follow the stream only while the person is at the bottom; scrolling up to read stops it.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [items, live?.draft, live?.toolCalls, live?.error]);
  useEffect(() => {
    stuck.current = true;
  }, [conversation.id]);

  return (
    <div
      ref={scroller}
      className="message-scroller"
      onScroll={(event) => {
        const el = event.currentTarget;
        stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      }}
    >
      <ol className="message-list" aria-label="Messages">
        {items.map((item) => (
          <TimelineRow key={item.message.id} item={item} conversationId={conversation.id} live={live} running={running} />
        ))}
        {running && (live?.draft ?? '') !== '' ? (
          <li className="message message-assistant streaming" aria-live="off" data-testid="streaming-reply">
            <Markdown text={live!.draft} />
            <span className="cursor" aria-hidden="true" />
          </li>
        ) : null}
        {running && (live?.draft ?? '') === '' && !hasActiveTool(live) ? (
          <li className="message message-assistant thinking" aria-label="The model is writing">
            <span className="dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
          </li>
        ) : null}
      </ol>
      {!running && live?.error ? (
        <div className="turn-error" role="alert">
          <WarningIcon />
          <div>
            <strong>The reply failed</strong>
            <p>{live.error}</p>
          </div>
        </div>
      ) : null}
      {!running && !live?.error && stopReasonNote(live?.stopReason) ? <p className="turn-note">{stopReasonNote(live?.stopReason)}</p> : null}
      {canRetry ? <RetryBar conversationId={conversation.id} /> : null}
    </div>
  );
}

function hasActiveTool(live: LiveTurn | undefined): boolean {
  return Object.values(live?.toolCalls ?? {}).some((call) => call.status !== 'finished');
}

function TimelineRow({ item, conversationId, live, running }: { item: TimelineItem; conversationId: string; live: LiveTurn | undefined; running: boolean }) {
  if (item.kind === 'person') return <PersonMessage item={item} conversationId={conversationId} running={running} />;
  return (
    <li className="message message-assistant" aria-label="Reply" data-message={item.message.id}>
      {item.parts.map((part, index) =>
        part.kind === 'text' ? (
          <Markdown key={index} text={part.text} />
        ) : (
          <ToolCallCard
            key={part.use.id}
            conversationId={conversationId}
            use={part.use}
            result={part.result}
            live={live?.toolCalls[part.use.id]}
            turnRunning={running}
          />
        ),
      )}
    </li>
  );
}

function PersonMessage({ item, conversationId, running }: { item: Extract<TimelineItem, { kind: 'person' }>; conversationId: string; running: boolean }) {
  const editAndResend = useBerth((s) => s.editAndResend);
  const [editing, setEditing] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function resend() {
    if (editing === undefined || editing.trim() === '') return;
    setBusy(true);
    const result = await editAndResend(conversationId, editing);
    setBusy(false);
    if (result.ok) {
      setEditing(undefined);
      setError(undefined);
    } else setError(result.message);
  }

  if (editing !== undefined) {
    return (
      <li className="message message-person editing">
        <textarea
          className="input composer-input"
          aria-label="Edit your message"
          value={editing}
          autoFocus
          rows={Math.min(10, editing.split('\n').length + 1)}
          onChange={(e) => setEditing(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void resend();
            } else if (e.key === 'Escape') setEditing(undefined);
          }}
        />
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="edit-actions">
          <span className="field-hint">The replies after this message are replaced.</span>
          <div className="spacer" />
          <Button size="sm" variant="ghost" onClick={() => setEditing(undefined)}>
            Cancel
          </Button>
          <Button size="sm" variant="primary" onClick={() => void resend()} disabled={busy || editing.trim() === ''}>
            Send
          </Button>
        </div>
      </li>
    );
  }
  return (
    <li className="message message-person" aria-label="Your message" data-message={item.message.id}>
      {item.text !== '' ? <div className="person-bubble">{item.text}</div> : null}
      {item.attachments.length > 0 ? <MessageAttachments attachments={item.attachments} /> : null}
      {item.isLast && !running ? (
        <div className="message-actions">
          <Button size="sm" variant="ghost" icon={<EditIcon />} onClick={() => setEditing(item.text)}>
            Edit
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function RetryBar({ conversationId }: { conversationId: string }) {
  const retryTurn = useBerth((s) => s.retryTurn);
  return (
    <div className="retry-bar">
      <Button size="sm" variant="ghost" icon={<RestartIcon />} onClick={() => void retryTurn(conversationId)}>
        Retry
      </Button>
    </div>
  );
}
