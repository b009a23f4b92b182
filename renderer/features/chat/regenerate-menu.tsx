import { DropdownMenu } from 'radix-ui';
import { groupByProvider } from '../../../shared/domain/model-groups';
import { useBerth } from '../../store';
import { RestartIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import { modelName } from './model-button';

import type { ModelOption } from '../../../shared/domain/providers';

/** One empty list, so the selector's answer keeps its identity before the settings load. */
const NO_MODELS: ModelOption[] = [];

/**
 * Regenerate under a reply: again with the conversation's model, or with another one for this reply only (the
 * conversation keeps its model: the person changes that in the composer's picker, as the tooltip says). Loaded on
 * demand by the reply rows (Radix's menu is not on the first screen's budget).
 */
export default function RegenerateMenu({
  conversationId,
  messageId,
  model,
}: {
  conversationId: string;
  messageId: string;
  /** The conversation's model. */
  model: string;
}) {
  const t = useT();
  const models = useBerth((s) => s.settings?.models ?? NO_MODELS);
  const regenerate = useBerth((s) => s.regenerate);
  const others = groupByProvider(models.filter((option) => option.id !== model));
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="btn btn-ghost btn-sm" title={t('chat.row.regenerateHint')}>
          <RestartIcon />
          <span>{t('chat.row.regenerate')}</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" side="bottom" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t('chat.row.regenerateMenu')}</DropdownMenu.Label>
          <DropdownMenu.Item className="menu-item" onSelect={() => void regenerate(conversationId, messageId)}>
            {t('chat.row.regenerateSame', { model: modelName(models, model) })}
          </DropdownMenu.Item>
          {others.length > 0 ? (
            <>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-group-label" title={t('chat.row.regenerateHint')}>
                {t('chat.row.regenerateOther')}
              </DropdownMenu.Label>
            </>
          ) : null}
          {others.map((group) => (
            <DropdownMenu.Group key={group.provider} aria-label={group.label} className="menu-group">
              {others.length > 1 ? (
                <DropdownMenu.Label className="menu-group-label">{group.label}</DropdownMenu.Label>
              ) : null}
              {group.models.map((option) => (
                <DropdownMenu.Item
                  key={option.id}
                  className="menu-item"
                  onSelect={() => void regenerate(conversationId, messageId, option.id)}
                >
                  {option.label}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Group>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
