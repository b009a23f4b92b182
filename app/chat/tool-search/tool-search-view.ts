import type { ChatToolsView } from '../../../shared/contract/chat';
import { toolKey } from '../../../shared/domain/chat';
import type { Conversation } from '../../../shared/domain/chat';
import type { ToolSearchThresholds } from '../../../shared/domain/tool-search';
import type { ToolOffer } from '../tool-offer';
import type { ToolSearch } from './tool-search-provider';

/** Tool search as the tools popover shows it (`chat.tools` → `toolSearch`). */
export function toolSearchView(
  toolSearch: ToolSearch,
  conversation: Conversation,
  offer: ToolOffer,
  contextWindow: number | undefined,
  thresholds: ToolSearchThresholds,
  tokenFactor = 1,
): NonNullable<ChatToolsView['toolSearch']> {
  const { mode, active, reason } = toolSearch.state(
    conversation,
    offer.enabled,
    offer.names,
    contextWindow,
    tokenFactor,
  );
  const enabled = new Set(offer.enabled.map(({ server, tool }) => toolKey(server, tool.name)));
  const loaded = (conversation.loadedTools ?? []).map((key) => {
    const slash = key.indexOf('/');
    return { server: key.slice(0, slash), tool: key.slice(slash + 1), enabled: enabled.has(key) };
  });
  return {
    mode,
    active,
    reason,
    thresholds,
    loaded,
    fullTokensEstimate: offer.fullToolTokens ?? offer.toolTokens,
    sentTokensEstimate: offer.toolTokens,
  };
}
