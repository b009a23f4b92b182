import { useShallow } from 'zustand/react/shallow';
import type { EventSubscriptionView } from '../../../shared/domain/mcp-events';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../ui/alert-dialog';
import { ChatIcon, PauseIcon, PlayIcon, TrashIcon } from '../../ui/icons';
import { formatDateTime } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';

const ACTION_LABEL: Record<EventSubscriptionView['action'], MessageId> = {
  notify: 'events.form.actionNotify',
  inbox: 'events.form.actionInbox',
  conversation: 'events.form.actionConversation',
};

/** The person's subscriptions to one server: their state, Pause/Resume, Remove, the conversation they feed. */
export function SubscriptionList({ server }: { server: string }) {
  const t = useT();
  const subscriptions = useBerth(
    useShallow((s) => s.eventsCatalog?.subscriptions.filter((sub) => sub.server === server) ?? []),
  );
  return (
    <section className="event-subscriptions" aria-labelledby={`subs-${server}`}>
      <h3 id={`subs-${server}`} className="section-heading">
        {t('events.subs.heading')}
      </h3>
      {subscriptions.length === 0 ? (
        <p className="muted">{t('events.subs.none')}</p>
      ) : (
        <ul className="event-subscription-list">
          {subscriptions.map((sub) => (
            <SubscriptionRow key={sub.id} sub={sub} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SubscriptionRow({ sub }: { sub: EventSubscriptionView }) {
  const t = useT();
  const setPaused = useBerth((s) => s.setSubscriptionPaused);
  const remove = useBerth((s) => s.removeSubscription);
  const openConversation = useBerth((s) => s.openConversation);
  const showView = useBerth((s) => s.showView);
  const args = Object.entries(sub.arguments);
  return (
    <li
      className="event-subscription"
      aria-label={t('events.subs.label', { event: sub.event, action: t(ACTION_LABEL[sub.action]) })}
    >
      <div className="event-subscription-text">
        <div className="event-subscription-head">
          <strong>{sub.event}</strong>
          <Chip tone={sub.paused ? 'warning' : sub.lastProblem ? 'danger' : 'success'}>
            {t(sub.paused ? 'events.subs.paused' : 'events.subs.live')}
          </Chip>
          <Chip>{t(ACTION_LABEL[sub.action])}</Chip>
        </div>
        {args.length > 0 ? (
          <code className="event-subscription-args">
            {args.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(' ')}
          </code>
        ) : null}
        <span className="muted">{t('events.subs.since', { when: formatDateTime(sub.createdAt) })}</span>
        {sub.lastProblem ? (
          <p className="event-subscription-problem">{t('events.subs.problem', { problem: sub.lastProblem })}</p>
        ) : null}
        {sub.heldBack ? <p className="field-hint">{t('events.subs.heldBack', { count: sub.heldBack })}</p> : null}
        {sub.truncatedAt ? (
          <p className="field-hint">{t('events.subs.truncated', { when: formatDateTime(sub.truncatedAt) })}</p>
        ) : null}
      </div>
      <div className="event-subscription-actions">
        {sub.conversationId ? (
          <Button
            size="sm"
            variant="ghost"
            icon={<ChatIcon />}
            onClick={() => {
              showView('chat');
              void openConversation(sub.conversationId!);
            }}
          >
            {t('events.subs.openConversation')}
          </Button>
        ) : null}
        <Button
          size="sm"
          icon={sub.paused ? <PlayIcon /> : <PauseIcon />}
          onClick={() => void setPaused(sub.id, !sub.paused)}
        >
          {t(sub.paused ? 'events.subs.resume' : 'events.subs.pause')}
        </Button>
        <AlertDialog
          className="dialog-narrow"
          trigger={
            <Button size="sm" variant="ghost" icon={<TrashIcon />}>
              {t('events.subs.remove')}
            </Button>
          }
        >
          <AlertDialogTitle>{t('events.subs.removeTitle', { event: sub.event })}</AlertDialogTitle>
          <AlertDialogDescription>{t('events.subs.removeBody', { server: sub.server })}</AlertDialogDescription>
          <div className="dialog-footer">
            <div className="spacer" />
            <AlertDialogCancel>
              <Button variant="ghost">{t('events.subs.cancel')}</Button>
            </AlertDialogCancel>
            <AlertDialogAction>
              <Button variant="danger" onClick={() => void remove(sub.id)}>
                {t('events.subs.removeConfirm')}
              </Button>
            </AlertDialogAction>
          </div>
        </AlertDialog>
      </div>
    </li>
  );
}
