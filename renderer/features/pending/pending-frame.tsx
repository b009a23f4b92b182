import clsx from 'clsx';
import { useEffect, useRef, type ReactNode } from 'react';
import type { PendingKind, PendingRequest, PendingResponse } from '../../../shared/domain/pending';
import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import { useBerth } from '../../store';
import { Button, IconButton, InlineAlert } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import { SafeName } from '../shell/safe-name';
import { DialogBody, DialogClose, DialogTitle } from '../../ui/dialog';
import { focusSafeChoice } from '../../ui/dialog-focus';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

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
  const t = useT();
  const waiting = useBerth((s) => s.pending.length);
  const deferPending = useBerth((s) => s.deferPending);
  const conversation = useBerth((s) =>
    request.conversationId ? s.conversations.find((c) => c.id === request.conversationId)?.title : undefined,
  );
  // A question asked inside a task says so: its answer goes to that task, which the Tasks view lists.
  const task = useBerth((s) =>
    s.tasks.find((record) =>
      request.taskId !== undefined
        ? record.id === request.taskId
        : request.toolUseId !== undefined &&
          record.toolUseId === request.toolUseId &&
          !isTerminalTaskStatus(record.status),
    ),
  );
  const others = waiting - 1;
  // The next request takes the place of one just answered, in the same open dialog: the focus went
  // with the old body, so it starts on this one's safe choice as the first did.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dialog = frame.current?.closest<HTMLElement>('[role="dialog"]');
    const active = document.activeElement;
    if (dialog && (active === document.body || active === dialog)) focusSafeChoice(dialog);
  }, []);
  return (
    <div className="pending-frame" ref={frame}>
      <header className="pending-header">
        <span className={clsx('pending-kind-icon', `kind-${request.kind}`)} aria-hidden="true">
          {icon}
        </span>
        <div className="pending-heading">
          <DialogTitle>{title}</DialogTitle>
          <p className="pending-origin">
            <T
              id={conversation ? 'pending.frame.fromIn' : 'pending.frame.from'}
              components={{
                server: (
                  <strong>
                    <SafeName name={request.server} />
                  </strong>
                ),
                conversation: <span className="pending-conversation">{conversation}</span>,
              }}
            />
            {task !== undefined ? (
              <span className="pending-task">
                {' · '}
                <T id="pending.frame.task" components={{ task: <SafeName name={task.tool ?? task.kind} /> }} />
              </span>
            ) : null}
            {others > 0 ? (
              <span className="pending-more">
                {' · '}
                {t('pending.frame.more', { count: others })}
              </span>
            ) : null}
          </p>
        </div>
        <Button size="sm" variant="ghost" onClick={() => deferPending(request.id)} title={t('pending.frame.laterHint')}>
          {t('pending.frame.later')}
        </Button>
        <DialogClose>
          <IconButton label={t('pending.frame.close')} title={t('pending.frame.closeHint')} icon={<CloseIcon />} />
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
