import { Popover } from 'radix-ui';
import { useMemo } from 'react';
import { toolKey, type Conversation } from '../../../shared/domain/chat';
import type { ChatToolEntry } from '../../../shared/contract/chat';
import { useBerth } from '../../store';
import { Button, Switch } from '../shell/controls';
import { ChevronDownIcon, ToolIcon, WarningIcon } from '../shell/icons';

function groupByServer(tools: readonly ChatToolEntry[]): [string, ChatToolEntry[]][] {
  const groups = new Map<string, ChatToolEntry[]>();
  for (const tool of tools) groups.set(tool.server, [...(groups.get(tool.server) ?? []), tool]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Which servers and tools this conversation offers the model; warns when there are too many. */
export function ToolsPopover({ conversation }: { conversation: Conversation }) {
  const view = useBerth((s) => s.conversationTools[conversation.id]);
  const load = useBerth((s) => s.loadConversationTools);
  const setTools = useBerth((s) => s.setConversationTools);
  const groups = useMemo(() => groupByServer(view?.tools ?? []), [view]);
  const disabledServers = new Set(conversation.disabledServers);
  const disabledTools = new Set(conversation.disabledTools);

  const toggleServer = (server: string, on: boolean) => {
    const next = new Set(disabledServers);
    if (on) next.delete(server);
    else next.add(server);
    void setTools(conversation.id, [...next], [...disabledTools]);
  };
  const toggleTool = (server: string, tool: string, on: boolean) => {
    const next = new Set(disabledTools);
    if (on) next.delete(toolKey(server, tool));
    else next.add(toolKey(server, tool));
    void setTools(conversation.id, [...disabledServers], [...next]);
  };

  return (
    <Popover.Root onOpenChange={(open) => open && void load(conversation.id)}>
      <Popover.Trigger asChild>
        <Button size="sm" icon={<ToolIcon />} aria-label="Tools for this conversation" className="tools-trigger">
          Tools
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
          <div className="tools-groups">
            {groups.map(([server, tools]) => {
              const serverOn = !disabledServers.has(server);
              return (
                <section key={server} className="tools-group" aria-label={server}>
                  <div className="tools-group-head">
                    <Switch checked={serverOn} onCheckedChange={(on) => toggleServer(server, on)} label={`Offer the tools of ${server}`} />
                    <strong>{server}</strong>
                    <span className="muted small">
                      {tools.filter((t) => t.enabled).length}/{tools.length}
                    </span>
                  </div>
                  <ul className="tools-group-list">
                    {tools.map((tool) => (
                      <li key={tool.tool} className="tools-item" title={tool.description}>
                        <Switch
                          checked={!disabledTools.has(toolKey(server, tool.tool))}
                          disabled={!serverOn}
                          onCheckedChange={(on) => toggleTool(server, tool.tool, on)}
                          label={`Offer ${tool.tool} of ${server}`}
                        />
                        <span className="tool-name">{tool.tool}</span>
                        {tool.title && tool.title !== tool.tool ? <span className="muted small">{tool.title}</span> : null}
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
