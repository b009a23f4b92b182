import { lazy, Suspense, useState } from 'react';
import { promptTokens, toolSearchSaved, type UsageLike } from '../../../shared/domain/chat-usage';
import { formatNumber as n } from '../../i18n/format';
import { translate, useT, type Translate } from '../../i18n/use-t';

/**
 * The quiet one-line summary: "1,234 in · 210 out · 900 from cache · 120 to cache · cache saved ≈ 660 · tools ≈ 640
 * of the input" (in: the whole prompt, cached parts included; a saving only once there is one). Components pass their
 * useT(); without it, the locale active when called.
 */
export function usageSummary(usage: UsageLike, t: Translate = translate): string {
  const parts = [
    t('chat.usage.in', { tokens: n(promptTokens(usage)) }),
    t('chat.usage.out', { tokens: n(usage.outputTokens) }),
  ];
  if (usage.reasoningTokens) parts.push(t('chat.usage.thinking', { tokens: n(usage.reasoningTokens) }));
  if (usage.cacheReadTokens !== undefined && usage.cacheReadTokens > 0)
    parts.push(t('chat.usage.cacheRead', { tokens: n(usage.cacheReadTokens) }));
  if (usage.cacheWriteTokens !== undefined && usage.cacheWriteTokens > 0)
    parts.push(t('chat.usage.cacheWrite', { tokens: n(usage.cacheWriteTokens) }));
  if (usage.cacheSavedTokens !== undefined && usage.cacheSavedTokens > 0)
    parts.push(t('chat.usage.cacheSaved', { tokens: n(usage.cacheSavedTokens) }));
  if (usage.toolTokensEstimate !== undefined && usage.toolTokensEstimate > 0)
    parts.push(t('chat.usage.tools', { tokens: n(usage.toolTokensEstimate) }));
  const saved = toolSearchSaved(usage);
  if (saved > 0) parts.push(t('chat.usage.search', { tokens: n(saved) }));
  if (usage.cappedTokensEstimate) parts.push(t('chat.usage.capped', { tokens: n(usage.cappedTokensEstimate) }));
  // A list of separate facts, not a sentence: the middle dot reads the same in every language.
  return parts.join(' · ');
}

// The facts load with the first opening of a usage line: the line itself is under every answer, on the first screen.
const UsageFacts = lazy(() => import('./usage-facts'));

/** What one answer cost, quietly under it; the details open with a click or Enter. Counts are the provider's, the tools' share is estimated. */
export function UsageLine({ usage }: { usage: UsageLike }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const summary = usageSummary(usage, t);
  return (
    <details className="usage-line" data-testid="usage-line" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary aria-label={t('chat.usage.label', { summary })}>{summary}</summary>
      {open ? (
        <Suspense fallback={null}>
          <UsageFacts usage={usage} />
        </Suspense>
      ) : null}
    </details>
  );
}
