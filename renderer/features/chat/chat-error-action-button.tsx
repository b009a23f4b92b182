import type { HostMessage } from '../../../shared/domain/host-message';
import { useBerth } from '../../store';
import { Button } from '../../ui/controls';
import { useT } from '../../i18n/use-t';
import { chatErrorAction } from './chat-error-action';

/** A failure's way out (chat-error-action.ts) as a button: Settings for a key, the model picker for a model. */
export function ChatErrorActionButton({ message }: { message: HostMessage | undefined }) {
  const showView = useBerth((s) => s.showView);
  const requestModelPicker = useBerth((s) => s.requestModelPicker);
  const t = useT();
  const action = chatErrorAction(message);
  if (action === undefined) return null;
  return action === 'open-settings' ? (
    <Button size="sm" variant="primary" onClick={() => showView('settings')}>
      {t('chat.view.openSettings')}
    </Button>
  ) : (
    <Button size="sm" variant="primary" onClick={requestModelPicker}>
      {t('chat.messages.pickModel')}
    </Button>
  );
}
