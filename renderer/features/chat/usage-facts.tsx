import { CHARS_PER_TOKEN, promptTokens, toolSearchSaved, type UsageLike } from '../../../shared/domain/chat-usage';
import { formatNumber as n } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-ids';
import { useT, type Translate } from '../../i18n/use-t';

/** Every count, said in full, for the details under the summary: the term's id and the words. */
function usageFacts(usage: UsageLike, t: Translate): Array<[MessageId, string]> {
  const requests = usage.requests ?? 1;
  const input = n(promptTokens(usage));
  const facts: Array<[MessageId, string]> = [
    [
      'chat.usage.facts.input',
      requests > 1
        ? t('chat.usage.facts.inputRequests', { tokens: input, requests: n(requests) })
        : t('chat.usage.facts.tokens', { tokens: input }),
    ],
    ['chat.usage.facts.output', t('chat.usage.facts.tokens', { tokens: n(usage.outputTokens) })],
  ];
  if (usage.reasoningTokens)
    facts.push([
      'chat.usage.facts.reasoning',
      t('chat.usage.facts.reasoningValue', { tokens: n(usage.reasoningTokens) }),
    ]);
  if (usage.cacheReadTokens !== undefined)
    facts.push(['chat.usage.facts.read', t('chat.usage.facts.ofInput', { tokens: n(usage.cacheReadTokens) })]);
  if (usage.cacheWriteTokens !== undefined)
    facts.push(['chat.usage.facts.written', t('chat.usage.facts.ofInput', { tokens: n(usage.cacheWriteTokens) })]);
  const saved = usage.cacheSavedTokens;
  if (saved !== undefined && saved >= 0) {
    facts.push(['chat.usage.facts.saved', t('chat.usage.facts.cacheSavedValue', { tokens: n(saved) })]);
  } else if (saved !== undefined) {
    facts.push(['chat.usage.facts.saved', t('chat.usage.facts.cacheCostValue', { tokens: n(-saved) })]);
  }
  if (usage.toolTokensEstimate !== undefined) {
    facts.push([
      'chat.usage.facts.tools',
      t('chat.usage.facts.toolsValue', { tokens: n(usage.toolTokensEstimate), chars: n(CHARS_PER_TOKEN) }),
    ]);
  }
  const searchSaved = toolSearchSaved(usage);
  if (searchSaved > 0) {
    facts.push([
      'chat.usage.facts.search',
      t('chat.usage.facts.searchValue', { tokens: n(searchSaved), full: n(usage.toolTokensFullEstimate ?? 0) }),
    ]);
  }
  if (usage.cappedTokensEstimate) {
    facts.push([
      'chat.usage.facts.capped',
      t('chat.usage.facts.cappedValue', { tokens: n(usage.cappedTokensEstimate) }),
    ]);
  }
  return facts;
}

/** The details under a usage line's summary, once it is opened. */
export default function UsageFacts({ usage }: { usage: UsageLike }) {
  const t = useT();
  return (
    <dl>
      {usageFacts(usage, t).map(([term, value]) => (
        <div key={term}>
          <dt>{t(term)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
