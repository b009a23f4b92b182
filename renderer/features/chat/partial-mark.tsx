import type { ChatPartial } from '../../../shared/domain/chat';
import { hostText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import { StopIcon, WarningIcon } from '../../ui/icons';

/** Under a reply that did not finish: "Stopped by you", or "Cut off: <the reason, in the person's language>". */
export function PartialMark({ partial }: { partial: ChatPartial }) {
  const t = useT();
  const stopped = partial.cause === 'stopped';
  const reason = hostText(partial.reasonMessage, partial.reason ?? '');
  return (
    <p className={`partial-mark${stopped ? '' : ' cut-off'}`} data-partial={partial.cause}>
      {stopped ? <StopIcon /> : <WarningIcon />}
      <span>{stopped ? t('chat.partial.stopped') : t('chat.partial.cutOff', { reason })}</span>
    </p>
  );
}
