import { Popover } from 'radix-ui';
import { useEffect } from 'react';
import type { ContextFill } from '../../../shared/contract/chat';
import type { ContextPolicy } from '../../../shared/domain/chat';
import { useBerth } from '../../store';

const n = (value: number): string => value.toLocaleString('en-US');

const PARTS: ReadonlyArray<{ key: keyof ContextFill['parts']; label: string }> = [
  { key: 'tools', label: 'Tool definitions' },
  { key: 'system', label: 'System and server instructions' },
  { key: 'history', label: 'Messages and tool results' },
  { key: 'attachments', label: 'Images and documents' },
];

const POLICIES: ReadonlyArray<{ value: ContextPolicy; label: string; hint: string }> = [
  {
    value: 'compact',
    label: 'Compact',
    hint: 'The model summarises the oldest turns; the summary is what it remembers of them.',
  },
  { value: 'drop', label: 'Drop the oldest turns', hint: 'They are left out of requests; the model is told.' },
  { value: 'ask', label: 'Stop and ask', hint: 'The reply stops with a Compact and retry button.' },
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
export function fillSummary(fill: ContextFill): string {
  const share = fillShare(fill);
  const used =
    share === undefined
      ? `about ${n(fill.tokens)} tokens (this model's window is unknown: enter it in Settings › Providers)`
      : `${Math.round(share * 100)}% of ${n(fillRoom(fill) ?? 0)} tokens (about ${n(fill.tokens)}; the window is ${n(fill.window ?? 0)}, less ${n(fill.reserve)} kept for the reply)`;
  const parts = PARTS.filter(({ key }) => fill.parts[key] > 0)
    .map(({ key, label }) => `${label}: ${n(fill.parts[key])}`)
    .join('; ');
  return `Context: ${used}. ${parts}.`;
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
  useEffect(() => {
    void load(conversationId);
  }, [conversationId, messageCount, load]);
  if (fill === undefined) return null;
  const share = fillShare(fill);
  const percent = share === undefined ? undefined : Math.min(100, Math.round(share * 100));
  const level = share === undefined ? 'unknown' : share >= 0.9 ? 'full' : share >= 0.7 ? 'high' : 'ok';
  const summary = fillSummary(fill);
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          className={`context-meter context-${level}`}
          data-testid="context-meter"
          // Named by what it shows ("Context 64%", as axe asks: the visible words in the name); the title, its
          // description, says what fills the window.
          title={summary}
        >
          <span className="context-meter-label">Context</span>
          <span className="context-meter-bar" aria-hidden="true">
            <span style={{ width: `${percent ?? 0}%` }} />
          </span>
          <span className="context-meter-value">{percent === undefined ? `≈ ${n(fill.tokens)}` : `${percent}%`}</span>
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover context-popover" align="end" sideOffset={6} collisionPadding={8}>
          <h3 className="popover-head">Context window</h3>
          <p className="context-popover-total">
            {share === undefined
              ? `About ${n(fill.tokens)} tokens. This model's window is unknown: enter it in Settings › Providers to see how full it is.`
              : `About ${n(fill.tokens)} of ${n(fillRoom(fill) ?? 0)} tokens (${percent}%) for the next request: the ${n(fill.window ?? 0)}-token window less ${n(fill.reserve)} kept for the reply. ${fill.providerCompactsAt !== undefined ? `Past about ${n(fill.providerCompactsAt)} tokens Anthropic compacts the conversation itself; if it still nears 95%, Berth acts as chosen below.` : 'Near 95%, Berth acts as chosen below.'}`}
          </p>
          <table className="context-parts" aria-label="What takes the room">
            <tbody>
              {PARTS.map(({ key, label }) => (
                <tr key={key}>
                  <th scope="row">{label}</th>
                  <td>{n(fill.parts[key])}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="field-hint">
            {fill.calibrated
              ? 'Berth’s estimate, checked against the provider’s own count after each reply.'
              : 'Berth’s estimate (about 4 characters a token) until the first reply of this model: then it is checked against the provider’s count.'}
          </p>
          <fieldset className="context-policy">
            <legend>When the next request would not fit</legend>
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
                  <strong>{policy.label}</strong> <span className="field-hint">{policy.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
