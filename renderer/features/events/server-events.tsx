import { useState } from 'react';
import type { EventTypeView } from '../../../shared/domain/mcp-events';
import { useBerth } from '../../store';
import { Button, EmptyState, InlineAlert } from '../../ui/controls';
import { InboxIcon, PlusIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import { SubscribeDialog } from './subscribe-dialog';
import { SubscriptionList } from './subscription-list';

/** Delivery modes Berth can use; webhook needs a public https endpoint a desktop app does not have. */
const USABLE_DELIVERY = new Set(['poll', 'push']);

/** Whether a server offers events, so its detail shows the Events tab. */
export function useOffersEvents(server: string): boolean {
  return useBerth(
    (s) =>
      (s.eventsCatalog?.servers.some((entry) => entry.server === server && entry.types.length > 0) ?? false) ||
      (s.eventsCatalog?.subscriptions.some((sub) => sub.server === server) ?? false),
  );
}

/** A server's Events tab: its event types with Subscribe…, then the person's subscriptions to it. */
export function ServerEvents({ server }: { server: string }) {
  const t = useT();
  const entry = useBerth((s) => s.eventsCatalog?.servers.find((item) => item.server === server));
  const [subscribing, setSubscribing] = useState<EventTypeView | undefined>();
  const types = entry?.types ?? [];
  return (
    <div className="server-events">
      {entry?.problem ? <InlineAlert>{t('events.tab.problem', { problem: entry.problem })}</InlineAlert> : null}
      {entry && entry.refused > 0 ? <p className="muted">{t('events.tab.refused', { count: entry.refused })}</p> : null}
      {types.length === 0 ? (
        <EmptyState icon={<InboxIcon />} title={t('events.tab.none')}>
          {t('events.tab.noneHint')}
        </EmptyState>
      ) : (
        <section aria-label={t('events.tab.types')}>
          <ul className="event-types">
            {types.map((type) => (
              <EventTypeRow key={type.name} type={type} onSubscribe={() => setSubscribing(type)} />
            ))}
          </ul>
        </section>
      )}
      <SubscriptionList server={server} />
      {subscribing ? (
        <SubscribeDialog server={server} type={subscribing} onClose={() => setSubscribing(undefined)} />
      ) : null}
    </div>
  );
}

function EventTypeRow({ type, onSubscribe }: { type: EventTypeView; onSubscribe: () => void }) {
  const t = useT();
  const usable = type.delivery.some((mode) => USABLE_DELIVERY.has(mode));
  const webhook = type.delivery.includes('webhook');
  return (
    <li className="event-type" aria-label={type.title ?? type.name}>
      <div className="event-type-text">
        <strong className="event-type-title">{type.title ?? type.name}</strong>
        {type.title ? <code className="event-type-name">{type.name}</code> : null}
        {type.description ? <p className="event-type-description">{type.description}</p> : null}
        <p className="muted">{t('events.type.delivery', { modes: type.delivery.join(', ') })}</p>
        {!usable ? (
          <p className="field-hint">{t('events.type.webhookOnly')}</p>
        ) : webhook ? (
          <p className="field-hint">{t('events.type.webhookNote')}</p>
        ) : null}
      </div>
      {usable ? (
        <Button size="sm" icon={<PlusIcon />} onClick={onSubscribe}>
          {t('events.type.subscribe')}
        </Button>
      ) : null}
    </li>
  );
}
