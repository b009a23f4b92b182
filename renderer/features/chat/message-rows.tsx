import clsx from 'clsx';
import { lazy, memo, Suspense, useState, type CSSProperties, type ComponentProps, type ReactNode } from 'react';
import type { LiveThinking, LiveToolCall, LiveWait } from '../../store';
import { TurnWaitBanner } from './turn-wait-banner';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { EditIcon } from '../../ui/icons';
import type { TimelineItem } from './chat-model';
import { Markdown } from './markdown';
import { MessageAttachments } from './message-attachments';
import { ToolCallCard } from './tool-call-card';
import { UsageLine } from './usage-line';
import type { UsageLike } from '../../../shared/domain/chat-usage';
import type { ContextCut } from '../../../shared/domain/chat';
import { useT } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';
import type { VersionMark } from '../../../shared/domain/chat-versions';
import { VersionSwitcher } from './version-switcher';

// The reasoning block loads with the first reply that has one: the message list is on the first screen.
// Only in a compacted (or trimmed) conversation: on demand, out of the first screen's bundle.
const LazyContextCutBlock = lazy(async () => ({ default: (await import('./context-cut-block')).ContextCutBlock }));
const LazyThinkingBlock = lazy(async () => ({ default: (await import('./thinking-block')).ThinkingBlock }));
// Only under a reply that was stopped or cut off, or in a conversation a background task answered: on demand too.
const FailedMessageMark = lazy(async () => ({
  default: (await import('./failed-message-mark')).FailedMessageMark,
}));
const PartialMark = lazy(async () => ({ default: (await import('./partial-mark')).PartialMark }));
// Under replies once the first one shows: Radix's menu is not on the first screen's budget.
const RegenerateMenu = lazy(() => import('./regenerate-menu'));
const TaskResultCard = lazy(async () => ({ default: (await import('./task-result-card')).TaskResultCard }));

function ThinkingBlock(props: ComponentProps<typeof LazyThinkingBlock>) {
  return (
    <Suspense fallback={null}>
      <LazyThinkingBlock {...props} />
    </Suspense>
  );
}

/** What the virtualized list gives every row's root `<li>`: its place and the hook that measures it. */
export interface RowPlacement {
  index: number;
  top: number;
  measureRef: (element: HTMLElement | null) => void;
}

function placementProps({ index, top, measureRef }: RowPlacement) {
  return { 'data-index': index, ref: measureRef, style: { transform: `translateY(${top}px)` } satisfies CSSProperties };
}

export interface MessageRowProps extends RowPlacement {
  item: TimelineItem;
  conversationId: string;
  /**
   * Whether a reply is running, passed as true only to the rows whose look depends on it
   * (the last person message, calls still without a result), so the others stay memoized
   * when a turn starts or ends.
   */
  running: boolean;
  /** The live state of this row's tool calls; undefined when the turn has none of them. */
  liveCalls: Record<string, LiveToolCall> | undefined;
  /**
   * False when the row is rendered only because it holds keyboard focus, far outside
   * the viewport and its overscan.
   *
   * The seam for heavy content: a row may own such content (an MCP App iframe in a tool
   * card); rows beyond the overscan are unmounted, which tears it down, and the virtualizer
   * keeps the measured height so nothing jumps (the app's own height is remembered too).
   */
  nearViewport: boolean;
  /** What the answer this row ends used (all its model requests), shown under it; undefined for other rows. */
  usage?: UsageLike | undefined;
  /** The conversation was compacted or cut after this row: the block says so (undefined for other rows). */
  cut?: ContextCut | undefined;
  /** With `cut`: the messages it left out (this row's too) are folded behind the block, which alone is shown. */
  folded?: boolean | undefined;
  /** With `cut`: shows or folds the messages it left out. */
  onToggleOriginals?: (() => void) | undefined;
  /** This message's position has other versions (an edit, a regenerated reply): "‹ 2 / 3 ›". */
  version?: VersionMark | undefined;
  /** The conversation's model (what Regenerate uses unless another is picked); replies only. */
  model?: string | undefined;
}

/**
 * One saved message. Memoized on purpose: a streamed token changes only the live row,
 * so every prop here keeps its identity between tokens.
 */
export const MessageRow = memo(function MessageRow({
  item,
  conversationId,
  running,
  liveCalls,
  usage,
  cut,
  folded,
  onToggleOriginals,
  version,
  model,
  ...placement
}: MessageRowProps) {
  const t = useT();
  const cutBlock =
    cut !== undefined ? (
      <Suspense fallback={null}>
        <LazyContextCutBlock cut={cut} folded={folded} onToggleOriginals={onToggleOriginals} />
      </Suspense>
    ) : null;
  if (item.kind === 'person')
    return (
      <PersonMessage
        item={item}
        conversationId={conversationId}
        running={running}
        placement={placement}
        cutBlock={cutBlock}
        folded={folded === true}
        version={version}
      />
    );
  // Folded, the row is only the block; the same children stay in place so the block (and its focus) survives a toggle.
  const shown = folded !== true;
  if (item.kind === 'task-result')
    return (
      <li className="message message-task-result" data-message={item.message.id} {...placementProps(placement)}>
        {shown ? (
          <Suspense fallback={null}>
            <TaskResultCard
              conversationId={conversationId}
              block={item.block}
              sent={item.sent}
              copy={item.copy}
              running={running}
            />
          </Suspense>
        ) : null}
        {cutBlock}
      </li>
    );
  return (
    <li
      className="message message-assistant"
      {...(shown ? { 'aria-label': t('chat.row.reply') } : {})}
      data-message={item.message.id}
      {...placementProps(placement)}
    >
      {shown
        ? item.parts.map((part, index) =>
            part.kind === 'text' ? (
              <Markdown key={index} text={part.text} />
            ) : part.kind === 'thinking' ? (
              <ThinkingBlock
                key={index}
                text={part.block.thinking}
                redacted={part.block.redacted !== undefined}
                durationMs={part.block.durationMs}
              />
            ) : (
              <ToolCallCard
                key={part.use.id}
                conversationId={conversationId}
                use={part.use}
                result={part.result}
                live={liveCalls?.[part.use.id]}
                turnRunning={running}
              />
            ),
          )
        : null}
      {/* A saved answer with neither text nor tool calls (some models, often local ones, stop at once). */}
      {shown && item.parts.length === 0 ? <p className="turn-note">{t('chat.row.emptyAnswer')}</p> : null}
      {shown && item.message.partial !== undefined ? (
        <Suspense fallback={null}>
          <PartialMark partial={item.message.partial} />
        </Suspense>
      ) : null}
      {shown && usage !== undefined ? <UsageLine usage={usage} /> : null}
      {shown ? (
        <div className="message-actions reply-actions">
          {version !== undefined ? <VersionSwitcher conversationId={conversationId} mark={version} /> : null}
          {model !== undefined ? (
            <Suspense fallback={null}>
              <RegenerateMenu conversationId={conversationId} messageId={item.message.id} model={model} />
            </Suspense>
          ) : null}
        </div>
      ) : null}
      {cutBlock}
    </li>
  );
});

/** Whether a row's look depends on a reply running (see `MessageRowProps.running`). */
export function rowFollowsRunning(item: TimelineItem): boolean {
  // A failed message's Retry, Edit and Discard wait for the running reply too.
  if (item.kind === 'person') return item.isLast || item.message.failed !== undefined;
  // Its Send waits for the running reply to end.
  if (item.kind === 'task-result') return !item.sent;
  return item.parts.some((part) => part.kind === 'tool-call' && part.result === undefined);
}

/** The live tool calls if any belongs to this row, so rows without one keep their props. */
export function liveCallsOfRow(
  item: TimelineItem,
  toolCalls: Record<string, LiveToolCall> | undefined,
): Record<string, LiveToolCall> | undefined {
  if (!toolCalls || item.kind !== 'assistant') return undefined;
  return item.parts.some((part) => part.kind === 'tool-call' && toolCalls[part.use.id] !== undefined)
    ? toolCalls
    : undefined;
}

/**
 * The reply being written (`draft`) with the reasoning streamed before it, or the dots while the model
 * works (nothing streamed yet). One element either way, so the reasoning block keeps its state (it folds
 * itself when the answer starts).
 */
export function LiveReplyRow({
  draft,
  thinking,
  conversationId,
  waiting,
  ...placement
}: RowPlacement & {
  draft: string;
  thinking?: LiveThinking | undefined;
  conversationId: string;
  /** The reply waits to ask the model again (rate limit, network): its banner stands where the dots would. */
  waiting?: LiveWait | undefined;
}) {
  const t = useT();
  const writing = draft !== '';
  const reasoning =
    thinking !== undefined ? (
      <ThinkingBlock text={thinking.text} redacted={thinking.redacted} streaming={!thinking.done} />
    ) : null;
  return (
    <li
      className={clsx(
        'message message-assistant',
        writing ? 'streaming' : thinking !== undefined ? 'reasoning' : 'thinking',
      )}
      {...(writing ? { 'aria-live': 'off' as const, 'data-testid': 'streaming-reply' } : {})}
      {...(!writing && thinking === undefined ? { 'aria-label': t('chat.row.writing') } : {})}
      {...placementProps(placement)}
    >
      {reasoning}
      {writing ? (
        <>
          <Markdown text={draft} />
          <span className="cursor" aria-hidden="true" />
        </>
      ) : waiting !== undefined ? (
        <TurnWaitBanner conversationId={conversationId} wait={waiting} />
      ) : thinking === undefined || thinking.done ? (
        <span className="dots" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
      ) : null}
    </li>
  );
}

function PersonMessage({
  item,
  conversationId,
  running,
  placement,
  cutBlock,
  folded,
  version,
}: {
  item: Extract<TimelineItem, { kind: 'person' }>;
  conversationId: string;
  running: boolean;
  placement: RowPlacement;
  cutBlock: ReactNode;
  folded: boolean;
  version: VersionMark | undefined;
}) {
  const editAndResend = useBerth((s) => s.editAndResend);
  const editAt = useBerth((s) => s.editAt);
  const t = useT();
  const [editing, setEditing] = useState<string>();
  // The failure itself, not its words: a language switch re-words it.
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const failed = item.message.failed;

  async function resend() {
    if (editing === undefined || editing.trim() === '') return;
    setBusy(true);
    // A failed message is replaced where it is sent from: the newest, whatever came after it. Any other message
    // branches the conversation where it is, the replies after it kept as the other version.
    const result =
      failed !== undefined
        ? await editAndResend(conversationId, editing, item.message.id)
        : await editAt(conversationId, item.message.id, editing);
    setBusy(false);
    if (result.ok) {
      setEditing(undefined);
      setError(undefined);
    } else setError(result);
  }

  if (editing !== undefined) {
    return (
      <li className="message message-person editing" {...placementProps(placement)}>
        <textarea
          className="input composer-input"
          aria-label={t('chat.row.editInput')}
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
            {failureText(error)}
          </p>
        ) : null}
        <div className="edit-actions">
          <span className="field-hint">
            {t(failed !== undefined ? 'chat.row.editHint' : 'chat.row.editBranchHint')}
          </span>
          <div className="spacer" />
          <Button size="sm" variant="ghost" onClick={() => setEditing(undefined)}>
            {t('chat.row.cancel')}
          </Button>
          <Button size="sm" variant="primary" onClick={() => void resend()} disabled={busy || editing.trim() === ''}>
            {t('chat.composer.send')}
          </Button>
        </div>
      </li>
    );
  }
  return (
    <li
      className={clsx('message message-person', failed !== undefined && !folded && 'failed')}
      {...(folded ? {} : { 'aria-label': t('chat.composer.group') })}
      data-message={item.message.id}
      {...placementProps(placement)}
    >
      {!folded && item.text !== '' ? <div className="person-bubble">{item.text}</div> : null}
      {!folded && item.attachments.length > 0 ? <MessageAttachments attachments={item.attachments} /> : null}
      {!folded && failed !== undefined ? (
        <Suspense fallback={null}>
          <FailedMessageMark
            conversationId={conversationId}
            messageId={item.message.id}
            failed={failed}
            running={running}
            onEdit={() => setEditing(item.text)}
          />
        </Suspense>
      ) : null}
      {!folded && failed === undefined && !(item.isLast && running) ? (
        <div className="message-actions">
          {version !== undefined ? <VersionSwitcher conversationId={conversationId} mark={version} /> : null}
          <Button size="sm" variant="ghost" icon={<EditIcon />} onClick={() => setEditing(item.text)}>
            {t('chat.row.edit')}
          </Button>
        </div>
      ) : null}
      {cutBlock}
    </li>
  );
}
