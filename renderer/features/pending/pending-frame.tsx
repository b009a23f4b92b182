import clsx from 'clsx';
import type { ReactNode } from 'react';
import type { PendingKind, PendingRequest, PendingResponse } from '../../../shared/domain/pending';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import { useBerth } from '../../store';
import { Button, IconButton, InlineAlert } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import { SafeName } from '../shell/safe-name';
import { DialogBody, DialogClose, DialogTitle } from '../../ui/dialog';

/** What a dialog body gets: its request and a way to answer it. */
export interface PendingDialogProps<K extends PendingKind> {
  request: Extract<PendingRequest, { kind: K }>;
  answer: (response: PendingResponse<K>) => Promise<void>;
  busy: boolean;
  error: string | undefined;
}

/** Header, scrolling body and footer shared by every pending dialog. */
export function PendingFrame({
  request,
  icon,
  title,
  children,
  footer,
  error,
}: {
  request: PendingRequest;
  icon: ReactNode;
  title: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  error: string | undefined;
}) {
  const waiting = useBerth((s) => s.pending.length);
  const deferPending = useBerth((s) => s.deferPending);
  const conversation = useBerth((s) =>
    request.conversationId ? s.conversations.find((c) => c.id === request.conversationId)?.title : undefined,
  );
  // A question asked inside a task says so: its answer goes to that task, which the Tasks view lists.
  const task = useBerth((s) =>
    s.tasks.find((t) =>
      request.taskId !== undefined
        ? t.id === request.taskId
        : request.toolUseId !== undefined && t.toolUseId === request.toolUseId && !isTerminalTaskStatus(t.status),
    ),
  );
  const others = waiting - 1;
  return (
    <div className="pending-frame">
      <header className="pending-header">
        <span className={clsx('pending-kind-icon', `kind-${request.kind}`)} aria-hidden="true">
          {icon}
        </span>
        <div className="pending-heading">
          <DialogTitle>{title}</DialogTitle>
          <p className="pending-origin">
            From{' '}
            <strong>
              <SafeName name={request.server} />
            </strong>
            {conversation ? (
              <>
                {' '}
                in <span className="pending-conversation">{conversation}</span>
              </>
            ) : null}
            {task !== undefined ? (
              <span className="pending-task">
                {' '}
                · part of a task (<SafeName name={task.tool ?? task.kind} />)
              </span>
            ) : null}
            {others > 0 ? <span className="pending-more"> · {others} more waiting</span> : null}
          </p>
        </div>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => deferPending(request.id)}
          title="Keep it waiting in the tray and answer later"
        >
          Later
        </Button>
        <DialogClose>
          <IconButton
            label="Close and answer later"
            title="Close; it stays in the tray until you answer"
            icon={<CloseIcon />}
          />
        </DialogClose>
      </header>
      <DialogBody className="pending-body">
        {children}
        {error ? <InlineAlert>{error}</InlineAlert> : null}
      </DialogBody>
      <footer className="dialog-footer pending-footer">{footer}</footer>
    </div>
  );
}
