import { DropdownMenu } from 'radix-ui';
import { useT } from '../../i18n/use-t';

export interface RowMenuProps {
  /** Where the menu opens: the pointer of a right click, or the row's corner from the keyboard. */
  at: { x: number; y: number };
  pinned: boolean;
  onPin: () => void;
  onRename: () => void;
  onDelete: () => void;
  onClose: () => void;
}

/**
 * A conversation's right-click menu. Loaded on the first right click: Radix's menu (and its positioning)
 * stays out of the first screen's JavaScript, which every row of the list is part of.
 */
export default function ConversationRowMenu({ at, pinned, onPin, onRename, onDelete, onClose }: RowMenuProps) {
  const t = useT();
  return (
    <DropdownMenu.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DropdownMenu.Trigger asChild>
        <span aria-hidden="true" style={{ position: 'fixed', left: at.x, top: at.y, width: 0, height: 0 }} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={2}>
          <DropdownMenu.Item className="menu-item" onSelect={onPin}>
            {pinned ? t('chat.row.unpin') : t('chat.row.pin')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={onRename}>
            {t('chat.row.rename')}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item menu-item-danger" onSelect={onDelete}>
            {t('chat.row.delete')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
