import { ToggleGroup } from 'radix-ui';

// Its own module, not controls.tsx: the first screen has no segmented choice, so Radix's ToggleGroup
// (and its roving focus) loads with the views that do.
interface SegmentedProps<T extends string> {
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}

/**
 * One choice out of a few, as a row of segments (arrow keys move between
 * them). Clicking the chosen segment again keeps it chosen: Radix would
 * report an empty value, which is never a valid choice here.
 */
export function Segmented<T extends string>({ value, options, onChange, ...labelling }: SegmentedProps<T>) {
  return (
    <ToggleGroup.Root
      type="single"
      className="segmented"
      value={value}
      {...labelling}
      onValueChange={(next) => {
        const chosen = options.find((option) => option.value === next);
        if (chosen !== undefined) onChange(chosen.value);
      }}
    >
      {options.map((option) => (
        <ToggleGroup.Item key={option.value} value={option.value} className="segmented-item">
          {option.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
