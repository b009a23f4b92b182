import { CHARS_PER_TOKEN, promptTokens, type UsageLike } from '../../../shared/domain/chat-usage';

const n = (value: number): string => value.toLocaleString('en-US');

/** The quiet one-line summary: "1,234 in · 210 out · tools ≈ 640 of the input" (in: the whole prompt, cached parts included). */
export function usageSummary(usage: UsageLike): string {
  const parts = [`${n(promptTokens(usage))} in`, `${n(usage.outputTokens)} out`];
  if (usage.cacheReadTokens !== undefined && usage.cacheReadTokens > 0) parts.push(`${n(usage.cacheReadTokens)} from cache`);
  if (usage.toolTokensEstimate !== undefined && usage.toolTokensEstimate > 0) parts.push(`tools ≈ ${n(usage.toolTokensEstimate)} of the input`);
  const saved = toolSearchSaved(usage);
  if (saved > 0) parts.push(`tool search saved ≈ ${n(saved)}`);
  if (usage.cappedTokensEstimate) parts.push(`≈ ${n(usage.cappedTokensEstimate)} saved by cutting long results`);
  return parts.join(' · ');
}

/** Every count, said in full, for the details under the summary. */
function usageFacts(usage: UsageLike): Array<[string, string]> {
  const requests = usage.requests ?? 1;
  const facts: Array<[string, string]> = [
    ['Input', `${n(promptTokens(usage))} tokens${requests > 1 ? `, over ${requests} model requests (each sends the conversation so far)` : ''}`],
    ['Output', `${n(usage.outputTokens)} tokens`],
  ];
  if (usage.cacheReadTokens !== undefined) facts.push(['Read from the prompt cache', `${n(usage.cacheReadTokens)} of the input tokens`]);
  if (usage.cacheWriteTokens !== undefined) facts.push(['Written to the prompt cache', `${n(usage.cacheWriteTokens)} of the input tokens`]);
  if (usage.toolTokensEstimate !== undefined) {
    facts.push(['Tool definitions', `≈ ${n(usage.toolTokensEstimate)} of the input tokens (Berth’s estimate: ${CHARS_PER_TOKEN} characters a token of the tool list sent)`]);
  }
  const saved = toolSearchSaved(usage);
  if (saved > 0) {
    facts.push(['Tool search', `saved ≈ ${n(saved)} tokens: every enabled tool’s definitions would have been ≈ ${n(usage.toolTokensFullEstimate ?? 0)}; the search tools and the loaded ones were sent instead`]);
  }
  if (usage.cappedTokensEstimate) {
    facts.push(['Long results cut', `≈ ${n(usage.cappedTokensEstimate)} tokens not sent: the model got their beginning and end (Berth’s estimate, summed over the requests)`]);
  }
  return facts;
}

/** Estimated definition tokens tool search kept out of the requests (0 when it was not on). */
function toolSearchSaved(usage: UsageLike): number {
  return usage.toolTokensFullEstimate === undefined ? 0 : Math.max(0, usage.toolTokensFullEstimate - (usage.toolTokensEstimate ?? 0));
}

/** What one answer cost, quietly under it; the details open with a click or Enter. Counts are the provider's, the tools' share is estimated. */
export function UsageLine({ usage, label = 'What this answer used' }: { usage: UsageLike; label?: string }) {
  return (
    <details className="usage-line" data-testid="usage-line">
      <summary aria-label={`${label}: ${usageSummary(usage)}`}>{usageSummary(usage)}</summary>
      <dl>
        {usageFacts(usage).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
