import clsx from 'clsx';
import { Toast } from 'radix-ui';
import { useBerth } from '../../store';
import { CloseIcon } from './icons';

/** Errors stay longer than confirmations; hovering or focusing a toast pauses its timer. */
const DURATION = { error: 12_000, success: 4_000, info: 6_000 } as const;

export function Toasts() {
  const toasts = useBerth((s) => s.toasts);
  const dismissToast = useBerth((s) => s.dismissToast);
  return (
    <Toast.Provider swipeDirection="right" label="Notifications">
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={clsx('toast', `toast-${toast.tone}`)}
          duration={DURATION[toast.tone]}
          type={toast.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && dismissToast(toast.id)}
        >
          <Toast.Title className="toast-title">{toast.title}</Toast.Title>
          {toast.message ? <Toast.Description className="toast-message">{toast.message}</Toast.Description> : null}
          <Toast.Close className="toast-close" aria-label="Dismiss">
            <CloseIcon />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
