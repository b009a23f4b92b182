import { CHARS_PER_TOKEN, promptTokens, toolSearchSaved, type UsageLike } from '../../../shared/domain/chat-usage';

const n = (value: number): string => value.toLocaleString('en-US');

/** Every count, said in full, for the details under the summary. */
function usageFacts(usage: UsageLike): Array<[string, string]> {
  const requests = usage.requests ?? 1;
  const facts: Array<[string, string]> = [
    [
      'Input',
      `${n(promptTokens(usage))} tokens${requests > 1 ? `, over ${requests} model requests (each sends the conversation so far)` : ''}`,
    ],
    ['Output', `${n(usage.outputTokens)} tokens`],
  ];
  if (usage.reasoningTokens)
    facts.push([
      'Reasoning',
      `${n(usage.reasoningTokens)} of the output tokens: the model’s thinking, billed as output`,
    ]);
  if (usage.cacheReadTokens !== undefined)
    facts.push(['Read from the prompt cache', `${n(usage.cacheReadTokens)} of the input tokens`]);
  if (usage.cacheWriteTokens !== undefined)
    facts.push(['Written to the prompt cache', `${n(usage.cacheWriteTokens)} of the input tokens`]);
  const saved = usage.cacheSavedTokens;
  if (saved !== undefined && saved >= 0) {
    facts.push([
      'Prompt cache saved',
      `≈ ${n(saved)} input tokens’ worth: what the provider read from its cache is billed at a fraction of the input price (writing to it costs a little more)`,
    ]);
  } else if (saved !== undefined) {
    facts.push([
      'Prompt cache saved',
      `nothing yet: writing to the cache cost ≈ ${n(-saved)} input tokens’ worth more than plain input; the next requests read it at a fraction of the price`,
    ]);
  }
  if (usage.toolTokensEstimate !== undefined) {
    facts.push([
      'Tool definitions',
      `≈ ${n(usage.toolTokensEstimate)} of the input tokens (Berth’s estimate: ${CHARS_PER_TOKEN} characters a token of the tool list sent)`,
    ]);
  }
  const searchSaved = toolSearchSaved(usage);
  if (searchSaved > 0) {
    facts.push([
      'Tool search',
      `saved ≈ ${n(searchSaved)} tokens: every enabled tool’s definitions would have been ≈ ${n(usage.toolTokensFullEstimate ?? 0)}; the search tools and the loaded ones were sent instead`,
    ]);
  }
  if (usage.cappedTokensEstimate) {
    facts.push([
      'Long results cut',
      `≈ ${n(usage.cappedTokensEstimate)} tokens not sent: the model got their beginning and end (Berth’s estimate, summed over the requests)`,
    ]);
  }
  return facts;
}

/** The details under a usage line's summary, once it is opened. */
export default function UsageFacts({ usage }: { usage: UsageLike }) {
  return (
    <dl>
      {usageFacts(usage).map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
