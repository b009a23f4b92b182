import { useEffect, useRef, useState } from 'react';
import { DropdownMenu } from 'radix-ui';
import { useBerth } from '../../store';
import { groupByProvider } from '../../../shared/domain/model-groups';
import type { ModelOption } from '../../../shared/domain/providers';
import { ModelButton } from './model-button';
import { T } from '../../i18n/t';
import { useT } from '../../i18n/use-t';

/**
 * The conversation's model, in groups by provider; a model no provider offers any more shows as it is, on top.
 * Loaded on demand by the composer (Radix's menu is not on the first screen's budget).
 */
export default function ModelPicker({
  models,
  value,
  onChange,
}: {
  models: ModelOption[];
  value: string;
  onChange: (model: string) => void;
}) {
  const t = useT();
  const current = models.find((m) => m.id === value);
  const groups = groupByProvider(models);
  const [open, setOpen] = useState(false);
  // A chat error's "Pick another model" asks for the menu; only asks made after this picker mounted open it.
  const requests = useBerth((s) => s.modelPickerRequests);
  const seen = useRef(requests);
  useEffect(() => {
    if (requests === seen.current) return;
    seen.current = requests;
    setOpen(true);
  }, [requests]);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger asChild>
        <ModelButton models={models} value={value} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" side="top" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t('chat.model.menu')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={value} onValueChange={onChange}>
            {current ? null : (
              <DropdownMenu.RadioItem value={value} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                <T
                  id="chat.model.gone"
                  values={{ model: value }}
                  components={{ muted: <span className="muted small" /> }}
                />
              </DropdownMenu.RadioItem>
            )}
            {groups.map((group) => (
              <DropdownMenu.Group key={group.provider} aria-label={group.label} className="menu-group">
                {groups.length > 1 ? (
                  <DropdownMenu.Label className="menu-group-label">{group.label}</DropdownMenu.Label>
                ) : null}
                {group.models.map((m) => (
                  <DropdownMenu.RadioItem key={m.id} value={m.id} className="menu-item">
                    <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                    {m.label}
                    {m.supportsTools === false ? <span className="muted small">{t('chat.model.noTools')}</span> : null}
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.Group>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
