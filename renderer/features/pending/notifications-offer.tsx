import { useState } from 'react';
import { Button } from '../../ui/controls';
import { browserAttentionEnvironment, markNotificationsOffered, shouldOfferNotifications } from './attention';
import { useT } from '../../i18n/use-t';

/**
 * Offered once, in the tray, when something waits: desktop notifications for
 * requests that arrive while Berth is in the background. The browser's own
 * permission prompt only appears after the person clicks "Turn on".
 */
export function NotificationsOffer() {
  const t = useT();
  const [visible, setVisible] = useState(() =>
    shouldOfferNotifications(browserAttentionEnvironment(), window.localStorage),
  );
  if (!visible) return null;
  const decide = async (turnOn: boolean) => {
    markNotificationsOffered(window.localStorage);
    setVisible(false);
    if (!turnOn) return;
    try {
      await Notification.requestPermission();
    } catch (error) {
      console.error('Berth: could not ask for notification permission', error);
    }
  };
  return (
    <div className="tray-offer" role="group" aria-label={t('pending.notify.label')}>
      <p>{t('pending.notify.ask')}</p>
      <div className="tray-offer-actions">
        <Button size="sm" variant="primary" onClick={() => void decide(true)}>
          {t('pending.notify.turnOn')}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void decide(false)}>
          {t('pending.notify.noThanks')}
        </Button>
      </div>
    </div>
  );
}
