import { lazy, Suspense, useEffect, useState } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { LazyPopover } from '../../ui/lazy-popover';
import { ChevronDownIcon, ToolIcon, WarningIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/** The open popover's content (switches, search): on demand, off the first screen. */
const ToolsPopoverBody = lazy(() => import('./tools-popover-body'));

/**
 * Which servers and tools this conversation offers the model; warns when there are too many.
 * Open and closed by its button, or by the owner (`open`/`onOpenChange`: the chat's tool warning opens it).
 */
export function ToolsPopover({
  conversation,
  open,
  onOpenChange,
}: {
  conversation: Conversation;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const t = useT();
  const view = useBerth((s) => s.conversationTools[conversation.id]);
  const load = useBerth((s) => s.loadConversationTools);
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  // However it opened (its button or the warning's shortcut), it shows the tools as they are now.
  useEffect(() => {
    if (isOpen) void load(conversation.id);
  }, [isOpen, conversation.id, load]);

  return (
    <LazyPopover
      open={isOpen}
      onOpenChange={(next) => {
        setOwnOpen(next);
        onOpenChange?.(next);
      }}
      className="popover tools-popover"
      trigger={(props) => (
        // The name starts with the visible words and count ("Tools 12/13"), so a voice command naming them finds the button.
        <Button
          {...props}
          size="sm"
          icon={<ToolIcon />}
          aria-label={
            view
              ? t('chat.tools.triggerCount', { offered: view.offeredCount, total: view.tools.length })
              : t('chat.tools.trigger')
          }
          className="tools-trigger"
        >
          {t('chat.tools.button')}{' '}
          {view ? <span className="count">{`${view.offeredCount}/${view.tools.length}`}</span> : null}
          {view?.warning ? <WarningIcon className="icon warn-icon" /> : null}
          <ChevronDownIcon />
        </Button>
      )}
    >
      <Suspense fallback={<p className="popover-empty">{t('chat.view.loading')}</p>}>
        <ToolsPopoverBody conversation={conversation} view={view} />
      </Suspense>
    </LazyPopover>
  );
}
