import type { ChatFailed } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { hostText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import { ChatErrorActionButton } from './chat-error-action-button';
import { EditIcon, RestartIcon, TrashIcon, WarningIcon } from '../../ui/icons';

/**
 * Under a message of the person's that got no reply: why (in their language), and Retry, Edit and Discard. The
 * message is left out of later requests until retried, so it is never merged with the next one.
 */
export function FailedMessageMark({
  conversationId,
  messageId,
  failed,
  running,
  onEdit,
}: {
  conversationId: string;
  messageId: string;
  failed: ChatFailed;
  running: boolean;
  onEdit: () => void;
}) {
  const t = useT();
  const retryFailed = useBerth((s) => s.retryFailed);
  const discardFailed = useBerth((s) => s.discardFailed);
  return (
    <div className="failed-mark" role="note" data-failed-message={messageId}>
      <WarningIcon />
      <div className="failed-mark-text">
        <strong>{t('chat.row.failed.title')}</strong>
        <span>{hostText(failed.reasonMessage, failed.reason)}</span>
        <span className="field-hint">{t('chat.row.failed.hint')}</span>
      </div>
      {running ? null : (
        <div className="failed-mark-actions">
          <ChatErrorActionButton message={failed.reasonMessage} />
          <Button size="sm" icon={<RestartIcon />} onClick={() => void retryFailed(conversationId, messageId)}>
            {t('chat.messages.retry')}
          </Button>
          <Button size="sm" variant="ghost" icon={<EditIcon />} onClick={onEdit}>
            {t('chat.row.edit')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            icon={<TrashIcon />}
            onClick={() => void discardFailed(conversationId, messageId)}
          >
            {t('chat.row.failed.discard')}
          </Button>
        </div>
      )}
    </div>
  );
}
