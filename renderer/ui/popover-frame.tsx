import { Popover } from 'radix-ui';
import { useRef, type ReactNode, type RefObject } from 'react';

export interface PopoverFrameProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The trigger button, rendered by LazyPopover outside Radix: the content is placed by it and focus returns to it. */
  anchor: RefObject<HTMLElement | null>;
  id: string;
  className: string;
  children: ReactNode;
}

/**
 * Radix's popover (placement, dismissal by Escape or a click outside, the focus moved in on open) around content
 * whose trigger lives outside it: loaded on the first open (lazy-popover.tsx), so its focus scope and layers stay off
 * the first screen. It does what Popover.Trigger would: a press on the trigger is not "outside" (the trigger toggles),
 * and closing puts focus back on the trigger unless the person clicked elsewhere.
 */
export default function PopoverFrame({ open, onOpenChange, anchor, id, className, children }: PopoverFrameProps) {
  const interactedOutside = useRef(false);
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          id={id}
          className={className}
          align="end"
          sideOffset={6}
          collisionPadding={8}
          onOpenAutoFocus={() => (interactedOutside.current = false)}
          onInteractOutside={(event) => {
            if (event.target instanceof Node && anchor.current?.contains(event.target) === true) event.preventDefault();
            else interactedOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!interactedOutside.current) anchor.current?.focus();
          }}
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
