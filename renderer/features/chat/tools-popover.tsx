import { Popover } from 'radix-ui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { toolKey } from '../../../shared/domain/chat-text';
import { useBerth } from '../../store';
import { Button } from '../shell/controls';
import { ChevronDownIcon, ToolIcon, WarningIcon } from '../shell/icons';
import { ToolSwitchList } from './tool-switch-list';
import { groupByServer, toolSwitchRows } from './tool-switch-rows';

/**
 * Which servers and tools this conversation offers the model; warns when there are too many.
 * Open and closed by its button, or by the owner (`open`/`onOpenChange`: the chat's tool warning opens it).
 */
export function ToolsPopover({ conversation, open, onOpenChange }: { conversation: Conversation; open?: boolean; onOpenChange?: (open: boolean) => void }) {
  const view = useBerth((s) => s.conversationTools[conversation.id]);
  const load = useBerth((s) => s.loadConversationTools);
  const setTools = useBerth((s) => s.setConversationTools);
  const [query, setQuery] = useState('');
  const [ownOpen, setOwnOpen] = useState(false);
  const isOpen = open ?? ownOpen;
  // However it opened (its button or the warning's shortcut), it shows the tools as they are now.
  useEffect(() => {
    if (isOpen) void load(conversation.id);
    else setQuery('');
  }, [isOpen, conversation.id, load]);
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
    <Popover.Root
      open={isOpen}
      onOpenChange={(next) => {
        setOwnOpen(next);
        onOpenChange?.(next);
      }}
    >
      <Popover.Trigger asChild>
        {/* The name starts with the visible words and count ("Tools 12/13"), so a voice command naming them finds the button. */}
        <Button size="sm" icon={<ToolIcon />} aria-label={view ? `Tools ${view.offeredCount}/${view.tools.length} for this conversation` : 'Tools for this conversation'} className="tools-trigger">
          Tools{' '}
          {view ? <span className="count">{`${view.offeredCount}/${view.tools.length}`}</span> : null}
          {view?.warning ? <WarningIcon className="icon warn-icon" /> : null}
          <ChevronDownIcon />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover tools-popover" align="end" sideOffset={6} collisionPadding={8}>
          <div className="popover-head">
            <strong>Tools offered to the model</strong>
            <span className="muted small">{view ? `${view.offeredCount} of ${view.tools.length}` : 'Loading…'}</span>
          </div>
          {view?.warning ? (
            <div className="inline-alert warn" role="note">
              <WarningIcon />
              <span>{view.warning}</span>
            </div>
          ) : null}
          {view && view.tools.length === 0 ? (
            <p className="popover-empty">No ready server offers tools. Start a server in Servers to give the model tools.</p>
          ) : null}
          {view && view.tools.length > 0 ? (
            <input
              type="search"
              className="input tools-search"
              aria-label="Search tools"
              placeholder={view.tools.length === 1 ? 'Search 1 tool' : `Search ${view.tools.length.toLocaleString()} tools`}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          ) : null}
          {view && view.tools.length > 0 && rows.length === 0 ? <p className="popover-empty">{`No server or tool matches “${query.trim()}”.`}</p> : null}
          <ToolSwitchList rows={rows} disabledServers={disabledServers} disabledTools={disabledTools} onServer={toggleServer} onTool={toggleTool} />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
