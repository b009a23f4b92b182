import { useBerth } from '../../store';
import { ChevronLeftIcon, ChevronRightIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import type { VersionMark } from '../../../shared/domain/chat-versions';

/**
 * "‹ 2 / 3 ›" on a message with other versions (an edited message, a regenerated reply): the arrows show the
 * previous or next one; the host refuses while a reply is written (its toast says why).
 */
export function VersionSwitcher({ conversationId, mark }: { conversationId: string; mark: VersionMark }) {
  const t = useT();
  const switchVersion = useBerth((s) => s.switchVersion);
  const { after, active, count } = mark;
  return (
    <div className="version-switcher" role="group" aria-label={t('chat.version.group', { n: active + 1, count })}>
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-icon"
        aria-label={t('chat.version.previous')}
        disabled={active === 0}
        onClick={() => void switchVersion(conversationId, after, active - 1)}
      >
        <ChevronLeftIcon />
      </button>
      <span className="version-count" aria-hidden="true">
        {active + 1} / {count}
      </span>
      <button
        type="button"
        className="btn btn-ghost btn-sm btn-icon"
        aria-label={t('chat.version.next')}
        disabled={active === count - 1}
        onClick={() => void switchVersion(conversationId, after, active + 1)}
      >
        <ChevronRightIcon />
      </button>
    </div>
  );
}
