import { lazy, Suspense, useId, useRef, useState, type ReactNode, type Ref } from 'react';

const loadFrame = () => import('./popover-frame');
const PopoverFrame = lazy(loadFrame);

/** What the trigger button must carry: LazyPopover's ref, toggle and the attributes Popover.Trigger would set. */
export interface PopoverTriggerProps {
  ref: Ref<HTMLButtonElement>;
  onClick: () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
  'aria-haspopup': 'dialog';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  'data-state': 'open' | 'closed';
}

/**
 * A popover opened by a button that is on every screen but rarely pressed (the tools, the tray, the context meter):
 * the button is plain and always there; Radix's popover (popover-frame.tsx) loads when the pointer or focus first
 * comes near it, and mounts on the first open. Controlled (`open`) or on its own.
 */
export function LazyPopover({
  open,
  onOpenChange,
  className,
  trigger,
  children,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  className: string;
  trigger: (props: PopoverTriggerProps) => ReactNode;
  children: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  const [used, setUsed] = useState(isOpen);
  if (isOpen && !used) setUsed(true);
  const anchor = useRef<HTMLButtonElement>(null);
  const id = useId();
  const change = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const preload = () => void loadFrame();
  return (
    <>
      {trigger({
        ref: anchor,
        onClick: () => change(!isOpen),
        onPointerEnter: preload,
        onFocus: preload,
        'aria-haspopup': 'dialog',
        'aria-expanded': isOpen,
        'aria-controls': isOpen ? id : undefined,
        'data-state': isOpen ? 'open' : 'closed',
      })}
      {used ? (
        <Suspense fallback={null}>
          <PopoverFrame open={isOpen} onOpenChange={change} anchor={anchor} id={id} className={className}>
            {children}
          </PopoverFrame>
        </Suspense>
      ) : null}
    </>
  );
}
