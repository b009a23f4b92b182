import clsx from 'clsx';
import { Toast } from 'radix-ui';
import { useBerth } from '../../store';
import { CloseIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import { useWords } from '../../i18n/words';
import { WordsText } from '../../i18n/words-text';

/** Errors stay longer than confirmations; hovering or focusing a toast pauses its timer. */
const DURATION = { error: 12_000, success: 4_000, info: 6_000 } as const;

export function Toasts() {
  const t = useT();
  const said = useWords();
  const toasts = useBerth((s) => s.toasts);
  const dismissToast = useBerth((s) => s.dismissToast);
  return (
    <Toast.Provider swipeDirection="right" label={t('shell.toasts.label')}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={clsx('toast', `toast-${toast.tone}`)}
          // An Undo must stay long enough to be found.
          duration={toast.action ? 10_000 : DURATION[toast.tone]}
          type={toast.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && dismissToast(toast.id)}
        >
          <Toast.Title className="toast-title">{said(toast.title)}</Toast.Title>
          {toast.message && said(toast.message) !== '' ? (
            <Toast.Description className="toast-message">
              <WordsText words={toast.message} />
            </Toast.Description>
          ) : null}
          {toast.action ? (
            <Toast.Action
              className="btn btn-sm toast-action"
              altText={t('shell.toasts.actionAlt', { action: said(toast.action.label), title: said(toast.title) })}
              onClick={toast.action.run}
            >
              {said(toast.action.label)}
            </Toast.Action>
          ) : null}
          <Toast.Close className="toast-close" aria-label={t('shell.toasts.dismiss')}>
            <CloseIcon />
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* Radix puts its hotkey where the message keeps {hotkey}; its own default label is English. */}
      <Toast.Viewport className="toast-viewport" label={t('shell.toasts.region', { hotkey: '{hotkey}' })} />
    </Toast.Provider>
  );
}
