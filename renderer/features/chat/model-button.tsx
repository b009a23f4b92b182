import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { groupByProvider } from '../../../shared/domain/model-groups';
import type { ModelOption } from '../../../shared/domain/providers';
import { Button } from '../../ui/controls';
import { ChevronDownIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/** The model's name as the picker says it: with its provider when more than one provider offers models. */
export function modelName(models: ModelOption[], value: string): string {
  const current = models.find((m) => m.id === value);
  if (current === undefined) return value;
  const groups = groupByProvider(models);
  if (groups.length <= 1) return current.label;
  return `${current.label} (${groups.find((g) => g.models.includes(current))?.label ?? ''})`;
}

type ModelButtonProps = { models: ModelOption[]; value: string } & Omit<ComponentPropsWithoutRef<'button'>, 'value'>;

/**
 * The composer's model button. On its own (disabled) while the menu's code loads, so the first screen shows the
 * model at once; the trigger of the menu (model-picker.tsx) once it has.
 */
export const ModelButton = forwardRef<HTMLButtonElement, ModelButtonProps>(function ModelButton(
  { models, value, ...rest },
  ref,
) {
  const t = useT();
  const current = models.find((m) => m.id === value);
  return (
    <Button
      ref={ref}
      size="sm"
      variant="ghost"
      aria-label={t('chat.model.button', { model: modelName(models, value) })}
      className="model-picker"
      {...rest}
    >
      {current?.label ?? value} <ChevronDownIcon />
    </Button>
  );
});
