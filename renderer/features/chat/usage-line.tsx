import { lazy, Suspense, useState } from 'react';
import { promptTokens, toolSearchSaved, type UsageLike } from '../../../shared/domain/chat-usage';

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * The quiet one-line summary: "1,234 in · 210 out · 900 from cache · 120 to cache · cache saved ≈ 660 · tools ≈ 640
 * of the input" (in: the whole prompt, cached parts included; a saving only once there is one).
 */
export function usageSummary(usage: UsageLike): string {
  const parts = [`${n(promptTokens(usage))} in`, `${n(usage.outputTokens)} out`];
  if (usage.reasoningTokens) parts.push(`${n(usage.reasoningTokens)} of it thinking`);
  if (usage.cacheReadTokens !== undefined && usage.cacheReadTokens > 0)
    parts.push(`${n(usage.cacheReadTokens)} from cache`);
  if (usage.cacheWriteTokens !== undefined && usage.cacheWriteTokens > 0)
    parts.push(`${n(usage.cacheWriteTokens)} to cache`);
  if (usage.cacheSavedTokens !== undefined && usage.cacheSavedTokens > 0)
    parts.push(`cache saved ≈ ${n(usage.cacheSavedTokens)}`);
  if (usage.toolTokensEstimate !== undefined && usage.toolTokensEstimate > 0)
    parts.push(`tools ≈ ${n(usage.toolTokensEstimate)} of the input`);
  const saved = toolSearchSaved(usage);
  if (saved > 0) parts.push(`tool search saved ≈ ${n(saved)}`);
  if (usage.cappedTokensEstimate) parts.push(`≈ ${n(usage.cappedTokensEstimate)} saved by cutting long results`);
  return parts.join(' · ');
}

// The facts load with the first opening of a usage line: the line itself is under every answer, on the first screen.
const UsageFacts = lazy(() => import('./usage-facts'));

/** What one answer cost, quietly under it; the details open with a click or Enter. Counts are the provider's, the tools' share is estimated. */
export function UsageLine({ usage, label = 'What this answer used' }: { usage: UsageLike; label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="usage-line" data-testid="usage-line" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary aria-label={`${label}: ${usageSummary(usage)}`}>{usageSummary(usage)}</summary>
      {open ? (
        <Suspense fallback={null}>
          <UsageFacts usage={usage} />
        </Suspense>
      ) : null}
    </details>
  );
}
