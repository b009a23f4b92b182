import { lazy, Suspense, useEffect, useState, type ClipboardEvent } from 'react';
import { MAX_MESSAGE_CHARS } from '../../../shared/domain/attachment-limits';
import type { ChatAttachment } from '../../../shared/domain/chat';
import { useT } from '../../i18n/use-t';
import { formatNumber } from '../../i18n/format';

/** From this share of the limit on, the counter shows. */
const COUNTER_FROM = 0.8;
/** A paste this long goes into the box but is offered as an attachment instead. */
export const LONG_PASTE_CHARS = 20_000;

// The offers show only past a limit or after a long paste: their words load then (the composer is on the first screen).
const PasteOfferPanel = lazy(async () => ({ default: (await import('./limit-offers')).PasteOfferPanel }));
/** Past the limit: what is wrong, what to do, and a button that does it (loaded when the text is over the limit). */
const LazyOverLimitNotice = lazy(async () => ({ default: (await import('./limit-offers')).OverLimitNotice }));

export function OverLimitNotice({ text, onAttachText }: { text: string; onAttachText: () => void }) {
  if (!isOverLimit(text)) return null;
  return (
    <Suspense fallback={null}>
      <LazyOverLimitNotice text={text} onAttachText={onAttachText} />
    </Suspense>
  );
}

/** Whether the draft's text is too long to send. */
export function isOverLimit(text: string): boolean {
  return text.length > MAX_MESSAGE_CHARS;
}

/** Characters used out of the message limit, in the composer's bar once the text nears it. */
export function CharacterCounter({ text }: { text: string }) {
  const t = useT();
  if (text.length < MAX_MESSAGE_CHARS * COUNTER_FROM) return null;
  return (
    <span
      className={isOverLimit(text) ? 'composer-counter composer-counter-over' : 'composer-counter'}
      title={t('chat.limits.counterHint')}
    >
      {t('chat.limits.counter', { used: formatNumber(text.length), max: formatNumber(MAX_MESSAGE_CHARS) })}
    </span>
  );
}

type Offer =
  /** The paste did not go in: it would not fit in a message. */
  | { kind: 'blocked'; pasted: string }
  /** The paste went in; it can still become an attachment, as long as the text is what the paste made it. */
  | { kind: 'after'; pasted: string; before: string; after: string };

/**
 * Long pastes: one that would push the message over its limit is held back
 * and offered as a text attachment; a merely long one goes in, with an offer
 * to turn it into an attachment instead.
 */
export function usePasteOffer({
  conversationId,
  text,
  setText,
  attach,
  refuse,
}: {
  conversationId: string;
  text: string;
  setText: (text: string) => void;
  attach: (attachments: ChatAttachment[]) => void;
  refuse: (reason: string) => void;
}) {
  const t = useT();
  const [offer, setOffer] = useState<Offer>();
  useEffect(() => setOffer(undefined), [conversationId]);
  // An offer about a paste the person has since edited no longer knows what to take out. (Until the
  // browser has inserted the paste, the text is still what it was before.)
  useEffect(() => {
    if (offer?.kind === 'after' && offer.after !== text && offer.before !== text) setOffer(undefined);
  }, [offer, text]);

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = event.clipboardData.getData('text/plain');
    const box = event.currentTarget;
    const start = box.selectionStart;
    const end = box.selectionEnd;
    const after = text.slice(0, start) + pasted + text.slice(end);
    if (after.length > MAX_MESSAGE_CHARS) {
      event.preventDefault();
      setOffer({ kind: 'blocked', pasted });
    } else if (pasted.length >= LONG_PASTE_CHARS) {
      setOffer({ kind: 'after', pasted, before: text, after });
    }
  };

  const attachPasted = async () => {
    if (offer === undefined) return;
    const { textAttachment } = await import('./dropped-files');
    const made = textAttachment(offer.pasted, t('chat.composer.pastedText'));
    if (!made.ok) {
      refuse(made.reason);
      setOffer(undefined);
      return;
    }
    if (offer.kind === 'after') setText(offer.before);
    attach([made.attachment]);
    setOffer(undefined);
  };

  const panel =
    offer === undefined ? null : (
      <Suspense fallback={null}>
        <PasteOfferPanel
          blocked={offer.kind === 'blocked'}
          pastedChars={offer.pasted.length}
          onAttach={() => void attachPasted()}
          onDismiss={() => setOffer(undefined)}
        />
      </Suspense>
    );
  return { onPaste, panel };
}
