import clsx from 'clsx';
import { lazy, memo, Suspense, useId, useState } from 'react';
import { isStoppedResult } from '../../../shared/domain/chat-text';
import { isHostToolCall } from '../../../shared/domain/host-tools';
import type { ChatToolResultBlock, ChatToolUseBlock } from '../../../shared/domain/chat';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import type { TaskStatus } from '../../../shared/domain/task-status';
import { useBerth, type LiveToolCall } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ChevronRightIcon, StopIcon, ToolIcon } from '../../ui/icons';
import { progressFraction, shownResult, toolCallStatus, type ToolCallStatus } from './chat-model';
import { McpContentView } from './content-blocks';
import { ToolCardTask, useCallAnswerTarget, WAITING_FOR_ANSWER } from './tool-card-task';
import { AnswerQuestionButton } from './tool-call-waiting';
import type { MessageId } from '../../i18n/message-ids';
import type { Translate } from '../../i18n/use-t';
import { useT } from '../../i18n/use-t';
import { T } from '../../i18n/t';
import { formatNumber } from '../../i18n/format';
import { HostMessageText } from '../../i18n/host-message';

/** A call whose tool has an MCP App: the frame and the bridge library load on demand, off the first screen. */
const AppCard = lazy(() => import('../apps/app-card'));
/** A call Berth answered itself (host tools): rare on the first screen, so loaded on demand too. */
const HostToolCard = lazy(() => import('./host-tool-card'));
/** A long result, or one Berth cut for the model: its shortened view, the note and the viewer load on demand. */
const LargeResult = lazy(() => import('./large-result'));
/** A call denied, stopped, cancelled or cut short by quitting: what happened instead of a result, on demand. */
const ToolResultNote = lazy(() => import('./tool-result-note'));

/** A preview of a big result, or over this many characters in one text, or 100 blocks, the card shows a shortened view (large-result.tsx PREVIEW_CHARS, PREVIEW_BLOCKS). */
function isLarge(result: ChatToolResultBlock): boolean {
  return (
    result.capped !== undefined ||
    result.whole !== undefined ||
    result.content.length > 100 ||
    result.content.some((b) => {
      const text: unknown = b.type === 'text' ? b.text : b.type === 'resource' ? b.resource.text : '';
      return typeof text === 'string' && text.length > 20_000;
    })
  );
}

const STATUS: Record<
  ToolCallStatus,
  { label: MessageId; tone: 'neutral' | 'accent' | 'warning' | 'danger' | 'success' }
> = {
  'awaiting-consent': { label: 'chat.call.status.consent', tone: 'warning' },
  running: { label: 'chat.call.status.running', tone: 'accent' },
  'waiting-answer': { label: 'chat.call.status.answer', tone: 'warning' },
  'waiting-result': { label: 'chat.call.status.finishing', tone: 'accent' },
  done: { label: 'chat.call.status.done', tone: 'success' },
  error: { label: 'chat.call.status.error', tone: 'danger' },
  denied: { label: 'chat.call.status.denied', tone: 'danger' },
  withdrawn: { label: 'chat.call.status.cancelled', tone: 'neutral' },
  stopped: { label: 'chat.call.status.stopped', tone: 'neutral' },
  interrupted: { label: 'chat.call.status.interrupted', tone: 'neutral' },
};
/** The chip of a call whose MCP task was cancelled: not an error the tool reported. */
const TASK_CANCELLED = { label: 'chat.call.status.cancelled', tone: 'neutral' } as const;
/** The chip of a call whose MCP task its server purged (or let expire). */
const TASK_EXPIRED = { label: 'chat.call.status.expired', tone: 'neutral' } as const;
/** The chip of a call that ended "stopped" because Berth quit while its task ran, not by the person's Stop. */
const BERTH_QUIT = { label: 'chat.call.status.quit', tone: 'neutral' } as const;
/** The chip of a call whose task goes on after the model got its immediate answer. */
const IN_BACKGROUND = { label: 'chat.call.status.background', tone: 'accent' } as const;

/** What the progress line says: the server's progress, else that the call works (unless its task line already says so). */
function progressWords(status: ToolCallStatus, live: LiveToolCall | undefined, t: Translate): string {
  if (status === 'waiting-answer') return t('chat.call.progress.paused');
  const progress = live?.progress;
  if (progress?.message !== undefined) return progress.message;
  if (progress !== undefined)
    return progress.total !== undefined
      ? t('chat.call.progress.ofTotal', {
          progress: formatNumber(progress.progress),
          total: formatNumber(progress.total),
        })
      : formatNumber(progress.progress);
  // A task's line above says what it is doing, in the server's words: "Working…" under "Working" says nothing more.
  return live?.task !== undefined ? '' : t('chat.call.progress.working');
}

/**
 * One tool call in the chat: the real server and tool, the arguments, where
 * it is (approval, progress with Stop), and everything it returned.
 * Memoized: a streamed token does not re-render the cards of earlier messages.
 */
export const ToolCallCard = memo(function ToolCallCard(props: ToolCallCardProps) {
  if (isHostToolCall(props.use)) {
    return (
      <Suspense fallback={null}>
        <HostToolCard use={props.use} result={shownResult(props.result, props.live)} />
      </Suspense>
    );
  }
  return <ServerToolCallCard {...props} />;
});

interface ToolCallCardProps {
  conversationId: string;
  use: ChatToolUseBlock;
  result: ChatToolResultBlock | undefined;
  live: LiveToolCall | undefined;
  turnRunning: boolean;
}

function ServerToolCallCard({ conversationId, use, result: savedResult, live, turnRunning }: ToolCallCardProps) {
  const t = useT();
  const result = shownResult(savedResult, live);
  const status = toolCallStatus(result, live, turnRunning);
  // A task that was cancelled (by the person, or by its server) ends the call with an error for the model; for the person the tool reported nothing.
  const taskStatus = useBerth(
    (s) =>
      live?.task?.status ?? s.tasks.find((t) => t.toolUseId === use.id && t.conversationId === conversationId)?.status,
  );
  const taskCancelled = status === 'error' && (taskStatus === 'cancelled' || result?.taskCancelled === true);
  const taskExpired = useBerth(
    (s) => s.tasks.find((t) => t.toolUseId === use.id && t.conversationId === conversationId)?.expired === true,
  );
  const taskBerthQuit = useBerth(
    (s) => s.tasks.find((t) => t.toolUseId === use.id && t.conversationId === conversationId)?.berthQuit === true,
  );
  // Quitting ends every chat turn as "stopped"; the task record says it was Berth's doing (its task left running, or lost).
  const quitTaskStatus = result !== undefined && isStoppedResult(result) && taskBerthQuit ? taskStatus : undefined;
  const stopTurn = useBerth((s) => s.stopTurn);
  const pendingId = useBerth((s) => s.pending.find((r) => r.kind === 'tool-call' && r.toolUseId === use.id)?.id);
  const focusPending = useBerth((s) => s.focusPending);
  const [argsOpen, setArgsOpen] = useState(false);
  const argsId = useId();
  const fraction = progressFraction(live?.progress);
  const unknownTool = use.server === '';
  const answerId = useCallAnswerTarget(live, use.id);
  const inBackground =
    result?.backgroundTask !== undefined && taskStatus !== undefined && !isTerminalTaskStatus(taskStatus);
  const chip = taskCancelled
    ? TASK_CANCELLED
    : inBackground
      ? IN_BACKGROUND
      : quitTaskStatus !== undefined
        ? BERTH_QUIT
        : status === 'error' && taskExpired
          ? TASK_EXPIRED
          : status === 'running' && answerId !== undefined
            ? WAITING_FOR_ANSWER
            : STATUS[status];
  const headAnswerId = status === 'waiting-answer' ? live?.waitingFor : undefined;
  const app = result?.app ?? live?.app;
  // While the server's app shows the call, the text result (what the model sees) folds away; it is back when the app cannot run.
  const [appRunning, setAppRunning] = useState(false);

  return (
    // tabIndex -1: "Show in chat" (the Tasks view) moves focus to the card.
    <div
      className={clsx('tool-call', `tool-call-${taskCancelled ? 'stopped' : status}`)}
      role="article"
      aria-label={t('chat.call.label', { tool: use.tool })}
      data-tool-use={use.id}
      data-status={status}
      tabIndex={-1}
    >
      <div className="tool-call-head">
        <ToolIcon />
        <span className="tool-call-name">
          {unknownTool ? (
            <span className="muted">{t('chat.call.unknownTool')}</span>
          ) : (
            <span className="tool-call-server">{use.server}</span>
          )}
          <span className="muted" aria-hidden="true">
            {' '}
            ›{' '}
          </span>
          <span className="tool-name">{use.tool}</span>
        </span>
        <Chip tone={chip.tone}>{t(chip.label)}</Chip>
        <div className="spacer" />
        {status === 'awaiting-consent' && pendingId ? (
          <Button size="sm" variant="primary" onClick={() => focusPending(pendingId)}>
            {t('chat.call.review')}
          </Button>
        ) : null}
        {headAnswerId !== undefined ? <AnswerQuestionButton pendingId={headAnswerId} tool={use.tool} /> : null}
      </div>

      {/* The head's Answer serves a question the host tied to this call; the task line's, one found only in the tray. Never both. */}
      <ToolCardTask
        conversationId={conversationId}
        toolUseId={use.id}
        live={live}
        answerId={status === 'waiting-answer' ? undefined : answerId}
        headAnswers={headAnswerId !== undefined}
      />
      {result?.backgroundTask !== undefined ? (
        <p className="tool-call-background">{t('chat.call.background')}</p>
      ) : null}

      {status === 'running' || status === 'waiting-answer' || status === 'waiting-result' ? (
        <div className="tool-progress">
          <div
            className={clsx('progress', fraction === undefined && status !== 'waiting-answer' && 'indeterminate')}
            role="progressbar"
            aria-label={t('chat.call.progressLabel', { tool: use.tool })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={fraction === undefined ? undefined : Math.round(fraction * 100)}
          >
            <span
              className="progress-fill"
              style={fraction === undefined ? undefined : { width: `${fraction * 100}%` }}
            />
          </div>
          <span className="tool-progress-text">{progressWords(status, live, t)}</span>
          {/* The contract has no per-call cancel: Stop ends the reply, which cancels its tool calls. */}
          <Button
            size="sm"
            icon={<StopIcon />}
            onClick={() => void stopTurn(conversationId)}
            title={t('chat.call.stopHint')}
          >
            {t('chat.composer.stop')}
          </Button>
        </div>
      ) : null}

      {/* A plain disclosure, not Radix Collapsible: that one measures its content on mount (a forced layout per card). */}
      <div className="tool-call-args">
        <button
          type="button"
          className={clsx('advanced-trigger', argsOpen && 'open')}
          aria-expanded={argsOpen}
          aria-controls={argsId}
          onClick={() => setArgsOpen(!argsOpen)}
        >
          <ChevronRightIcon /> {t('chat.call.arguments')}
          {result?.sentInput ? <Chip tone="warning">{t('chat.call.editedByYou')}</Chip> : null}
        </button>
        {argsOpen ? (
          <div id={argsId}>
            {result?.sentInput ? (
              <div className="args-pair">
                <span className="args-caption">{t('chat.call.sent')}</span>
                <pre className="code-block">{JSON.stringify(result.sentInput, null, 2)}</pre>
                <span className="args-caption">{t('chat.call.modelAsked')}</span>
                <pre className="code-block">{JSON.stringify(use.input, null, 2)}</pre>
              </div>
            ) : (
              <pre className="code-block">
                {JSON.stringify(live?.status === 'running' ? live.input : use.input, null, 2)}
              </pre>
            )}
          </div>
        ) : null}
      </div>

      {app !== undefined && !unknownTool ? (
        <Suspense fallback={null}>
          <AppCard
            conversationId={conversationId}
            use={use}
            app={app}
            result={result}
            liveInput={live?.input}
            taskCancelled={taskCancelled}
            onRunningChange={setAppRunning}
          />
        </Suspense>
      ) : null}

      {result && appRunning && isPlainResult(result, taskCancelled) ? (
        <FoldedResult result={result} server={use.server} tool={use.tool} conversationId={conversationId} />
      ) : result ? (
        <ToolResult
          conversationId={conversationId}
          result={result}
          server={use.server === '' ? undefined : use.server}
          tool={use.tool}
          taskCancelled={taskCancelled}
          quitTaskStatus={quitTaskStatus}
        />
      ) : null}
    </div>
  );
}

/** A result the tool gave without error (not a denial, a stop or a cancelled task): an app can show it instead. */
function isPlainResult(result: ChatToolResultBlock, taskCancelled: boolean): boolean {
  return result.denied === undefined && !result.isError && !isStoppedResult(result) && !taskCancelled;
}

/** The text result under a disclosure, for a card whose app shows the call. */
function FoldedResult({
  result,
  server,
  tool,
  conversationId,
}: {
  result: ChatToolResultBlock;
  server: string;
  tool: string;
  conversationId: string;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="tool-call-args">
      <button
        type="button"
        className={clsx('advanced-trigger', open && 'open')}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <ChevronRightIcon /> <T id="chat.call.textResult" components={{ muted: <span className="muted small" /> }} />
      </button>
      {open ? (
        <div id={id}>
          <ToolResult
            conversationId={conversationId}
            result={result}
            server={server}
            tool={tool}
            taskCancelled={false}
          />
        </div>
      ) : null}
    </div>
  );
}

function ToolResult({
  conversationId,
  result,
  server,
  tool,
  taskCancelled,
  quitTaskStatus,
}: {
  conversationId: string;
  result: ChatToolResultBlock;
  server: string | undefined;
  tool: string;
  taskCancelled: boolean;
  /** Berth quit while this call's task ran: where the task is now. */
  quitTaskStatus?: TaskStatus | undefined;
}) {
  const t = useT();
  if (result.denied !== undefined || quitTaskStatus !== undefined || isStoppedResult(result) || taskCancelled) {
    return (
      <Suspense fallback={null}>
        <ToolResultNote result={result} taskCancelled={taskCancelled} quitTaskStatus={quitTaskStatus} />
      </Suspense>
    );
  }
  if (isLarge(result)) {
    return (
      <Suspense fallback={<p className="muted small">{t('chat.call.loadingResult')}</p>}>
        <LargeResult result={result} server={server} tool={tool} conversationId={conversationId} />
      </Suspense>
    );
  }
  if (result.isError && result.outcomeMessage !== undefined) {
    // Berth's words, not the server's: headed as such, in the person's language (the content is their English).
    const english = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    return (
      <div className="tool-result tool-result-error" data-testid="host-outcome">
        <strong className="tool-result-label">{t('tool-outcome.heading')}</strong>
        <p>
          <HostMessageText message={result.outcomeMessage} fallback={english} />
        </p>
      </div>
    );
  }
  return (
    <div className={clsx('tool-result', result.isError && 'tool-result-error')}>
      {result.isError ? (
        <strong className="tool-result-label">{t('chat.call.toolError')}</strong>
      ) : (
        <span className="args-caption">{t('chat.call.result')}</span>
      )}
      {result.content.length === 0 && result.structuredContent === undefined ? (
        <p className="muted small">{t('chat.call.noContent')}</p>
      ) : null}
      {result.content.map((block, index) => (
        <McpContentView key={index} block={block} server={server} />
      ))}
      {result.structuredContent !== undefined ? (
        <div className="structured">
          <span className="args-caption">{t('chat.call.structured')}</span>
          <pre className="code-block">{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </div>
      ) : null}
    </div>
  );
}
