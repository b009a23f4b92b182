import { useEffect } from 'react';
import type { ContextFill } from '../../../shared/contract/chat';
import type { ContextPolicy } from '../../../shared/domain/chat';
import { formatNumber } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { useT, type Translate } from '../../i18n/use-t';
import { useBerth } from '../../store';
import { LazyPopover } from '../../ui/lazy-popover';

const n = (value: number): string => formatNumber(value);
const percentOf = (share: number): string => formatNumber(share, { style: 'percent', maximumFractionDigits: 0 });

const PARTS: ReadonlyArray<{ key: keyof ContextFill['parts']; label: MessageId }> = [
  { key: 'tools', label: 'chat.meter.part.tools' },
  { key: 'system', label: 'chat.meter.part.system' },
  { key: 'history', label: 'chat.meter.part.history' },
  { key: 'attachments', label: 'chat.meter.part.attachments' },
];

const POLICIES: ReadonlyArray<{ value: ContextPolicy; label: MessageId; hint: MessageId }> = [
  { value: 'compact', label: 'chat.meter.policy.compact', hint: 'chat.meter.hint.compact' },
  { value: 'drop', label: 'chat.meter.policy.drop', hint: 'chat.meter.hint.drop' },
  { value: 'ask', label: 'chat.meter.policy.ask', hint: 'chat.meter.hint.ask' },
];

/** The room for the conversation: the window less what is kept for the reply (undefined when unknown). */
export function fillRoom(fill: ContextFill): number | undefined {
  if (fill.window === undefined || fill.window <= 0) return undefined;
  return fill.window > fill.reserve ? fill.window - fill.reserve : fill.window;
}

/** The share of the room that is used, or undefined when the window is unknown. */
export function fillShare(fill: ContextFill): number | undefined {
  const room = fillRoom(fill);
  return room === undefined ? undefined : fill.tokens / room;
}

/** One line on what fills the window, for the meter's hover text and label. */
export function fillSummary(fill: ContextFill, t: Translate): string {
  const share = fillShare(fill);
  // The parts are a list of any length: each is worded alone and joined by the locale's separator.
  const parts = PARTS.filter(({ key }) => fill.parts[key] > 0)
    .map(({ key, label }) => t('chat.meter.summary.part', { part: t(label), tokens: n(fill.parts[key]) }))
    .join(t('chat.meter.summary.separator'));
  return share === undefined
    ? t('chat.meter.summary.unknown', { tokens: n(fill.tokens), parts })
    : t('chat.meter.summary.known', {
        percent: percentOf(share),
        room: n(fillRoom(fill) ?? 0),
        tokens: n(fill.tokens),
        window: n(fill.window ?? 0),
        reserve: n(fill.reserve),
        parts,
      });
}

/** The popover's first paragraph: how full, out of what, and when Berth (or the provider) acts. */
function fillTotal(fill: ContextFill, t: Translate): string {
  const share = fillShare(fill);
  if (share === undefined) return t('chat.meter.total.unknown', { tokens: n(fill.tokens) });
  const values = {
    tokens: n(fill.tokens),
    room: n(fillRoom(fill) ?? 0),
    percent: percentOf(Math.min(1, share)),
    window: n(fill.window ?? 0),
    reserve: n(fill.reserve),
  };
  return fill.providerCompactsAt !== undefined
    ? t('chat.meter.total.providerCompacts', { ...values, compactsAt: n(fill.providerCompactsAt) })
    : t('chat.meter.total.known', values);
}

/**
 * How full the model's context window is for this conversation's next request, in the header; its
 * popover says what takes the room and what Berth does when it is full (the conversation's policy).
 * Reloaded after each saved message: the host's estimate is anchored on the provider's last count.
 */
export function ContextMeter({ conversationId, messageCount }: { conversationId: string; messageCount: number }) {
  const fill = useBerth((s) => s.contextFills[conversationId]);
  const load = useBerth((s) => s.loadContextFill);
  const setPolicy = useBerth((s) => s.setContextPolicy);
  const t = useT();
  useEffect(() => {
    void load(conversationId);
  }, [conversationId, messageCount, load]);
  if (fill === undefined) return null;
  const share = fillShare(fill);
  const percent = share === undefined ? undefined : Math.min(100, Math.round(share * 100));
  const level = share === undefined ? 'unknown' : share >= 0.9 ? 'full' : share >= 0.7 ? 'high' : 'ok';
  const summary = fillSummary(fill, t);
  return (
    <LazyPopover
      className="popover context-popover"
      trigger={(props) => (
        <button
          {...props}
          type="button"
          className={`context-meter context-${level}`}
          data-testid="context-meter"
          // Named by what it shows ("Context 64%", as axe asks: the visible words in the name); the title, its
          // description, says what fills the window.
          title={summary}
        >
          <span className="context-meter-label">{t('chat.meter.label')}</span>
          <span className="context-meter-bar" aria-hidden="true">
            <span style={{ width: `${percent ?? 0}%` }} />
          </span>
          <span className="context-meter-value">
            {percent === undefined ? t('chat.meter.approx', { tokens: n(fill.tokens) }) : percentOf(percent / 100)}
          </span>
        </button>
      )}
    >
      <h3 className="popover-head">{t('chat.meter.title')}</h3>
      <p className="context-popover-total">{fillTotal(fill, t)}</p>
      <table className="context-parts" aria-label={t('chat.meter.parts')}>
        <tbody>
          {PARTS.map(({ key, label }) => (
            <tr key={key}>
              <th scope="row">{t(label)}</th>
              <td>{n(fill.parts[key])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="field-hint">{t(fill.calibrated ? 'chat.meter.calibrated' : 'chat.meter.uncalibrated')}</p>
      <fieldset className="context-policy">
        <legend>{t('chat.meter.policy.legend')}</legend>
        {POLICIES.map((policy) => (
          <label key={policy.value} className="context-policy-option">
            <input
              type="radio"
              name={`context-policy-${conversationId}`}
              value={policy.value}
              checked={fill.policy === policy.value}
              onChange={() => void setPolicy(conversationId, policy.value)}
            />
            <span>
              <strong>{t(policy.label)}</strong> <span className="field-hint">{t(policy.hint)}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </LazyPopover>
  );
}
