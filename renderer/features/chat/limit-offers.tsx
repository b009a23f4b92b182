import { MAX_MESSAGE_CHARS } from '../../../shared/domain/attachment-limits';
import { Button } from '../../ui/controls';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

// The composer's offers past the message limit and after a long paste, loaded only when one shows.

const count = (n: number) => formatNumber(n);

/** Past the limit: what is wrong, what to do, and a button that does it. */
export function OverLimitNotice({ text, onAttachText }: { text: string; onAttachText: () => void }) {
  const t = useT();
  const over = text.length - MAX_MESSAGE_CHARS;
  return (
    <div className="composer-offer" role="status">
      <span>{t('chat.limits.over', { over, count: count(over), max: count(MAX_MESSAGE_CHARS) })}</span>
      <Button size="sm" variant="primary" onClick={onAttachText}>
        {t('chat.limits.attachText')}
      </Button>
    </div>
  );
}

/** After a paste: held back (it would not fit) or let in (it is long), with the offer to attach it as a file instead. */
export function PasteOfferPanel({
  blocked,
  pastedChars,
  onAttach,
  onDismiss,
}: {
  blocked: boolean;
  pastedChars: number;
  onAttach: () => void;
  onDismiss: () => void;
}) {
  const t = useT();
  return (
    <div className="composer-offer" role="alert">
      <span>
        {blocked
          ? t('chat.limits.pasteBlocked', { count: count(pastedChars), max: count(MAX_MESSAGE_CHARS) })
          : t('chat.limits.pasteLong', { count: count(pastedChars) })}
      </span>
      <Button size="sm" variant="primary" onClick={onAttach}>
        {t('chat.limits.attachPaste')}
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        {t(blocked ? 'chat.row.cancel' : 'chat.limits.keep')}
      </Button>
    </div>
  );
}
