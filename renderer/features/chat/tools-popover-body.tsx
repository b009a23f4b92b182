import { useCallback, useMemo, useState } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { toolKey } from '../../../shared/domain/chat-text';
import type { ChatToolsView } from '../../../shared/contract/chat';
import { useBerth } from '../../store';
import { WarningIcon } from '../../ui/icons';
import { ToolSwitchList } from './tool-switch-list';
import { groupByServer, toolSwitchRows } from './tool-switch-rows';
import { ToolSearchPanel } from './tool-search-panel';
import { useT } from '../../i18n/use-t';
import { HostMessageText } from '../../i18n/host-message';

/**
 * What the tools popover shows once open: the warning, the search and every server's and tool's
 * switch. Loaded on demand (tools-popover.tsx): the first screen only needs the button.
 */
export default function ToolsPopoverBody({
  conversation,
  view,
}: {
  conversation: Conversation;
  view: ChatToolsView | undefined;
}) {
  const t = useT();
  const setTools = useBerth((s) => s.setConversationTools);
  const [query, setQuery] = useState('');
  const groups = useMemo(() => groupByServer(view?.tools ?? []), [view]);
  const rows = useMemo(() => toolSwitchRows(groups, query), [groups, query]);
  const disabledServers = useMemo(() => new Set(conversation.disabledServers), [conversation.disabledServers]);
  const disabledTools = useMemo(() => new Set(conversation.disabledTools), [conversation.disabledTools]);

  const toggleServer = useCallback(
    (server: string, on: boolean) => {
      const next = new Set(disabledServers);
      if (on) next.delete(server);
      else next.add(server);
      void setTools(conversation.id, [...next], [...disabledTools]);
    },
    [conversation.id, disabledServers, disabledTools, setTools],
  );
  const toggleTool = useCallback(
    (server: string, tool: string, on: boolean) => {
      const next = new Set(disabledTools);
      if (on) next.delete(toolKey(server, tool));
      else next.add(toolKey(server, tool));
      void setTools(conversation.id, [...disabledServers], [...next]);
    },
    [conversation.id, disabledServers, disabledTools, setTools],
  );

  return (
    <>
      <div className="popover-head">
        <strong>{t('chat.tools.heading')}</strong>
        <span className="muted small">
          {view
            ? t('chat.tools.count', { offered: view.offeredCount, total: view.tools.length })
            : t('chat.view.loading')}
        </span>
      </div>
      {view?.toolSearch ? <ToolSearchPanel conversationId={conversation.id} toolSearch={view.toolSearch} /> : null}
      {view?.warning ? (
        <div className="inline-alert warn" role="note">
          <WarningIcon />
          <span>
            <HostMessageText message={view.warningMessage} fallback={view.warning} />
          </span>
        </div>
      ) : null}
      {view && view.tools.length === 0 ? <p className="popover-empty">{t('chat.tools.none')}</p> : null}
      {view && view.tools.length > 0 ? (
        <input
          type="search"
          className="input tools-search"
          aria-label={t('chat.tools.search')}
          placeholder={t('chat.tools.searchPlaceholder', { count: view.tools.length })}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      ) : null}
      {view && view.tools.length > 0 && rows.length === 0 ? (
        <p className="popover-empty">{t('chat.tools.noMatch', { query: query.trim() })}</p>
      ) : null}
      <ToolSwitchList
        rows={rows}
        disabledServers={disabledServers}
        disabledTools={disabledTools}
        onServer={toggleServer}
        onTool={toggleTool}
      />
    </>
  );
}
