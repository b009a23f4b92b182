import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useRef } from 'react';
import { toolKey } from '../../../shared/domain/chat-text';
import { Switch } from '../../ui/switch';
import type { ToolSwitchRow } from './tool-switch-rows';
import { useT } from '../../i18n/use-t';

/** Fixed row heights (see .tools-row in popovers.css): fixed, so nothing is measured. */
const SERVER_ROW_HEIGHT = 34;
const TOOL_ROW_HEIGHT = 28;

export interface ToolSwitchListProps {
  rows: readonly ToolSwitchRow[];
  disabledServers: ReadonlySet<string>;
  disabledTools: ReadonlySet<string>;
  onServer: (server: string, on: boolean) => void;
  onTool: (server: string, tool: string, on: boolean) => void;
}

/**
 * Every server's and tool's switch, virtualized: a person with 2,000 tools gets the
 * popover at once. Tab still walks the switches: the browser scrolls the focused one
 * into view and the rows after it are rendered (overscan) before Tab reaches them.
 */
export function ToolSwitchList({ rows, disabledServers, disabledTools, onServer, onTool }: ToolSwitchListProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback(
    (index: number) => {
      const row = rows[index]!;
      return row.kind === 'server' ? `s:${row.server}` : `t:${toolKey(row.server, row.tool.tool)}`;
    },
    [rows],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]!.kind === 'server' ? SERVER_ROW_HEIGHT : TOOL_ROW_HEIGHT),
    getItemKey,
    overscan: 10,
  });

  return (
    <div ref={scroller} className="tools-groups" role="group" aria-label={t('chat.tools.groups')}>
      <div className="tools-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const serverOn = !disabledServers.has(row.server);
          return row.kind === 'server' ? (
            <ServerRow
              key={item.key}
              top={item.start}
              server={row.server}
              on={serverOn}
              enabled={row.enabled}
              total={row.total}
              onServer={onServer}
            />
          ) : (
            <ToolRow
              key={item.key}
              top={item.start}
              server={row.server}
              tool={row.tool.tool}
              title={row.tool.title}
              description={row.tool.description}
              on={!disabledTools.has(toolKey(row.server, row.tool.tool))}
              serverOn={serverOn}
              onTool={onTool}
            />
          );
        })}
      </div>
    </div>
  );
}

const ServerRow = memo(function ServerRow(props: {
  top: number;
  server: string;
  on: boolean;
  enabled: number;
  total: number;
  onServer: ToolSwitchListProps['onServer'];
}) {
  const t = useT();
  return (
    <div
      className="tools-row tools-group-head"
      style={{ transform: `translateY(${props.top}px)`, height: SERVER_ROW_HEIGHT }}
    >
      <Switch
        checked={props.on}
        onCheckedChange={(on) => props.onServer(props.server, on)}
        label={t('chat.tools.offerServer', { server: props.server })}
      />
      <strong>{props.server}</strong>
      <span className="muted small">
        {props.enabled}/{props.total}
      </span>
    </div>
  );
});

const ToolRow = memo(function ToolRow(props: {
  top: number;
  server: string;
  tool: string;
  title: string | undefined;
  description: string | undefined;
  on: boolean;
  serverOn: boolean;
  onTool: ToolSwitchListProps['onTool'];
}) {
  const t = useT();
  return (
    <div
      className="tools-row tools-item"
      title={props.description}
      style={{ transform: `translateY(${props.top}px)`, height: TOOL_ROW_HEIGHT }}
    >
      <Switch
        checked={props.on}
        disabled={!props.serverOn}
        onCheckedChange={(on) => props.onTool(props.server, props.tool, on)}
        label={t('chat.tools.offerTool', { tool: props.tool, server: props.server })}
      />
      <span className="tool-name" title={props.tool}>
        {props.tool}
      </span>
      {props.title && props.title !== props.tool ? <span className="muted small">{props.title}</span> : null}
    </div>
  );
});
