import { DropdownMenu } from 'radix-ui';
import { useEffect } from 'react';
import { offersReasoning, REASONING_LEVELS } from '../../../shared/domain/reasoning';
import type { ReasoningLevel, ReasoningSupport } from '../../../shared/domain/reasoning';
import type { ModelOption } from '../../../shared/domain/providers';
import { useBerth } from '../../store';
import { Button, WithTooltip } from '../../ui/controls';
import { ChevronDownIcon, SparkleIcon } from '../../ui/icons';

const LEVEL_NAMES: Record<ReasoningLevel, string> = { off: 'Off', low: 'Low', medium: 'Medium', high: 'High' };

/** What each level does, in the menu. */
const LEVEL_HINTS: Record<ReasoningLevel, string> = {
  off: 'Answers at once. No reasoning tokens.',
  low: 'A short think first. A little slower, a few more tokens.',
  medium: 'Thinks it through. Good for most harder questions.',
  high: 'Thinks longest. For hard problems; slowest and costs the most.',
};

/** How the level reaches the model, for the tooltip. */
function howSent(support: ReasoningSupport): string {
  if (support === 'effort') return 'Sent as reasoning_effort.';
  if (support === 'budget') return 'Claude gets a thinking budget (2k, 8k or 24k tokens).';
  return 'Claude decides how much to think at this effort.';
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
  useEffect(() => {
    if (defaults === undefined) void loadDefaults();
  }, [defaults, loadDefaults]);

  if (model === undefined || !offersReasoning(model.reasoning)) return null;
  const level = own ?? defaults?.level ?? 'off';
  const tooltip = `Thinking before answering: better on hard questions, but slower, and reasoning is billed as output tokens. ${howSent(model.reasoning ?? 'adaptive')}`;
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
            {`Thinking: ${LEVEL_NAMES[level]}`} <ChevronDownIcon />
          </Button>
        </DropdownMenu.Trigger>
      </WithTooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu reasoning-menu" align="start" side="top" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">Reasoning in this conversation</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={level}
            onValueChange={(value) => void setReasoning(conversationId, value as ReasoningLevel)}
          >
            {REASONING_LEVELS.map((option) => (
              <DropdownMenu.RadioItem key={option} value={option} className="menu-item reasoning-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                <span className="reasoning-item-text">
                  <span>{LEVEL_NAMES[option]}</span>
                  <span className="muted small">{LEVEL_HINTS[option]}</span>
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
            {defaults?.level === level
              ? `${LEVEL_NAMES[level]} is the default`
              : `Make ${LEVEL_NAMES[level]} the default (new conversations)`}
          </DropdownMenu.Item>
          <DropdownMenu.CheckboxItem
            className="menu-item"
            checked={defaults?.sampling === true}
            onCheckedChange={(checked) => void setDefaults({ sampling: checked })}
          >
            <DropdownMenu.ItemIndicator className="menu-indicator">✓</DropdownMenu.ItemIndicator>
            Let servers’ sampling requests think too
          </DropdownMenu.CheckboxItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
