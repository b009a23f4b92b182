import { Switch as RadixSwitch } from 'radix-ui';

// Its own module, not controls.tsx: the first screen has no switch, so Radix's Switch loads with the views that do.
export function Switch({
  checked,
  onCheckedChange,
  label,
  disabled,
  id,
  describedBy,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
  id?: string;
  /** The id of a text that explains the switch (read after its name). */
  describedBy?: string;
}) {
  return (
    <RadixSwitch.Root
      id={id}
      className="switch"
      checked={checked}
      onCheckedChange={onCheckedChange}
      aria-label={label}
      aria-describedby={describedBy}
      disabled={disabled}
    >
      <RadixSwitch.Thumb className="switch-thumb" />
    </RadixSwitch.Root>
  );
}
