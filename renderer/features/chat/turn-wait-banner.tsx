import { useEffect, useState } from 'react';
import { useBerth } from '../../store';
import type { LiveWait } from '../../store';
import { Button } from '../../ui/controls';
import { HostMessageText } from '../../i18n/host-message';
import { useT } from '../../i18n/use-t';
import { GlobeIcon, RestartIcon, StopIcon } from '../../ui/icons';

/** Seconds left until `until`, rounded up (a wait of 0.2 s still reads 1 s until it is over). */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** Re-renders each second while there is a deadline: the countdown reads the clock, never a stored number. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * In place of the typing dots while a reply waits to ask the model again: a rate limit or an overload with its
 * countdown and attempt, or the network with "will retry when the connection is back"; Retry now and Stop. The
 * browser's `online` event asks at once instead of waiting for the host's next probe.
 */
export function TurnWaitBanner({ conversationId, wait }: { conversationId: string; wait: LiveWait }) {
  const t = useT();
  const retryNow = useBerth((s) => s.retryNow);
  const stopTurn = useBerth((s) => s.stopTurn);
  const offline = wait.reason === 'network';
  const now = useNow(wait.until !== undefined);
  useEffect(() => {
    if (!offline) return;
    const online = (): void => void retryNow(conversationId);
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [offline, retryNow, conversationId]);
  // The provider's own words (its whole message would repeat "try again in…" beside the countdown).
  const said = wait.cause?.params?.detail;
  const detail = typeof said === 'string' && said !== '' ? said : undefined;
  const seconds = wait.until === undefined ? 0 : secondsLeft(wait.until, now);
  const counts = { seconds, attempt: wait.attempt, maxAttempts: wait.maxAttempts };
  const headline = offline
    ? t('chat.wait.offline')
    : seconds === 0
      ? t('chat.wait.retrying')
      : wait.reason === 'rate-limit'
        ? wait.provider === undefined
          ? t('chat.wait.rateLimitedApi', counts)
          : t('chat.wait.rateLimited', { ...counts, provider: wait.provider })
        : wait.provider === undefined
          ? t('chat.wait.overloadedApi', counts)
          : t('chat.wait.overloaded', { ...counts, provider: wait.provider });
  return (
    <div className={`turn-wait${offline ? ' offline' : ''}`} role="status" data-wait={wait.reason}>
      {offline ? <GlobeIcon /> : <RestartIcon />}
      <div className="turn-wait-text">
        <strong>{headline}</strong>
        {offline && wait.cause !== undefined ? (
          <span className="turn-wait-cause">
            <HostMessageText message={wait.cause} fallback="" />
          </span>
        ) : detail !== undefined ? (
          <span className="turn-wait-cause">{detail}</span>
        ) : null}
      </div>
      <div className="turn-wait-actions">
        <Button size="sm" icon={<RestartIcon />} onClick={() => void retryNow(conversationId)}>
          {t('chat.wait.retryNow')}
        </Button>
        <Button size="sm" variant="ghost" icon={<StopIcon />} onClick={() => void stopTurn(conversationId)}>
          {t('chat.wait.stop')}
        </Button>
      </div>
    </div>
  );
}
