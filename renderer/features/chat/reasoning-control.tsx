import { DropdownMenu } from 'radix-ui';
import { useEffect } from 'react';
import { offersReasoning, REASONING_LEVELS } from '../../../shared/domain/reasoning';
import type { ReasoningLevel, ReasoningSupport } from '../../../shared/domain/reasoning';
import type { ModelOption } from '../../../shared/domain/providers';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';
import { useBerth } from '../../store';
import { Button, WithTooltip } from '../../ui/controls';
import { ChevronDownIcon, SparkleIcon } from '../../ui/icons';

const LEVEL_NAMES: Record<ReasoningLevel, MessageId> = {
  off: 'chat.reasoning.level.off',
  low: 'chat.reasoning.level.low',
  medium: 'chat.reasoning.level.medium',
  high: 'chat.reasoning.level.high',
};

/** What each level does, in the menu. */
const LEVEL_HINTS: Record<ReasoningLevel, MessageId> = {
  off: 'chat.reasoning.hint.off',
  low: 'chat.reasoning.hint.low',
  medium: 'chat.reasoning.hint.medium',
  high: 'chat.reasoning.hint.high',
};

/** The tooltip: what thinking costs, and how the level reaches the model. */
const TOOLTIPS: Record<'effort' | 'budget' | 'adaptive', MessageId> = {
  effort: 'chat.reasoning.tooltip.effort',
  budget: 'chat.reasoning.tooltip.budget',
  adaptive: 'chat.reasoning.tooltip.adaptive',
};
function tooltipFor(support: ReasoningSupport): MessageId {
  return support === 'effort' || support === 'budget' ? TOOLTIPS[support] : TOOLTIPS.adaptive;
}

/**
 * Beside the model picker: the model's reasoning in this conversation (off, or low, medium, high
 * effort). Shown only for models known to reason (shared/domain/reasoning.ts); for the others there is
 * nothing to set, though reasoning a model streams anyway (a local `<think>`) is still shown.
 */
export function ReasoningControl({
  conversationId,
  model,
}: {
  conversationId: string;
  model: ModelOption | undefined;
}) {
  const own = useBerth((s) => s.conversationDetails[conversationId]?.reasoning);
  const defaults = useBerth((s) => s.reasoningDefaults);
  const loadDefaults = useBerth((s) => s.loadReasoningDefaults);
  const setReasoning = useBerth((s) => s.setReasoning);
  const setDefaults = useBerth((s) => s.setReasoningDefaults);
  const t = useT();
  useEffect(() => {
    if (defaults === undefined) void loadDefaults();
  }, [defaults, loadDefaults]);

  if (model === undefined || !offersReasoning(model.reasoning)) return null;
  const level = own ?? defaults?.level ?? 'off';
  const tooltip = t(tooltipFor(model.reasoning ?? 'adaptive'));
  return (
    <DropdownMenu.Root>
      <WithTooltip content={tooltip}>
        <DropdownMenu.Trigger asChild>
          <Button
            size="sm"
            variant="ghost"
            icon={<SparkleIcon />}
            className={`reasoning-control${level === 'off' ? '' : ' reasoning-on'}`}
          >
            {t('chat.reasoning.button', { level: t(LEVEL_NAMES[level]) })} <ChevronDownIcon />
          </Button>
        </DropdownMenu.Trigger>
      </WithTooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu reasoning-menu" align="start" side="top" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t('chat.reasoning.menu')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={level}
            onValueChange={(value) => void setReasoning(conversationId, value as ReasoningLevel)}
          >
            {REASONING_LEVELS.map((option) => (
              <DropdownMenu.RadioItem key={option} value={option} className="menu-item reasoning-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                <span className="reasoning-item-text">
                  <span>{t(LEVEL_NAMES[option])}</span>
                  <span className="muted small">{t(LEVEL_HINTS[option])}</span>
                </span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item
            className="menu-item"
            disabled={defaults?.level === level}
            onSelect={() => void setDefaults({ level })}
          >
            {t(defaults?.level === level ? 'chat.reasoning.isDefault' : 'chat.reasoning.makeDefault', { level })}
          </DropdownMenu.Item>
          <DropdownMenu.CheckboxItem
            className="menu-item"
            checked={defaults?.sampling === true}
            onCheckedChange={(checked) => void setDefaults({ sampling: checked })}
          >
            <DropdownMenu.ItemIndicator className="menu-indicator">✓</DropdownMenu.ItemIndicator>
            {t('chat.reasoning.sampling')}
          </DropdownMenu.CheckboxItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
