import { useMemo } from 'react';
import type { Conversation } from '../../../shared/domain/chat';
import { toolKey } from '../../../shared/domain/chat-text';
import { useBerth } from '../../store';
import { IconButton } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

/**
 * "Loaded by the model: …" above the message box, while tool search is on in this conversation:
 * the tools the model loaded (their definitions go with every request), each removable. Loaded
 * lazily from chat-view.tsx, only where tool search is on or something is loaded.
 *
 * The list is the conversation's own (`loadedTools`, kept current by chat.loadedToolsChanged), and
 * whether each is sent comes from the conversation's switches and the ready servers already in the
 * store: listing every tool (chat.tools, 2,000 for some) after each saved message only to learn this was too dear.
 */
export default function LoadedToolsStrip({ conversation }: { conversation: Conversation }) {
  const t = useT();
  const conversationId = conversation.id;
  const toolSearch = useBerth((s) => s.conversationTools[conversationId]?.toolSearch);
  const unload = useBerth((s) => s.unloadTools);
  const keys = conversation.loadedTools;
  // One string, so the strip redraws when a server's readiness or its tools change, not on every server event.
  const readyTools = useBerth((s) => {
    const wanted = new Set((keys ?? []).map((key) => key.slice(0, key.indexOf('/'))));
    return [...wanted]
      .flatMap((server) =>
        s.servers[server]?.status === 'ready' ? s.servers[server].tools.map((tool) => toolKey(server, tool.name)) : [],
      )
      .join('\n');
  });
  const loaded = useMemo(() => {
    const ready = new Set(readyTools.split('\n'));
    const offServers = new Set(conversation.disabledServers);
    const offTools = new Set(conversation.disabledTools);
    return (keys ?? []).map((key) => {
      const server = key.slice(0, key.indexOf('/'));
      return {
        server,
        tool: key.slice(server.length + 1),
        enabled: ready.has(key) && !offServers.has(server) && !offTools.has(key),
      };
    });
  }, [keys, readyTools, conversation.disabledServers, conversation.disabledTools]);
  if (toolSearch === undefined) return null;
  return (
    <div className="loaded-tools" role="region" aria-label={t('chat.loaded.region')}>
      <span className="loaded-tools-label">
        {loaded.length === 0 ? t('chat.loaded.none') : t(toolSearch.active ? 'chat.loaded.label' : 'chat.loaded.off')}
      </span>
      <ul className="loaded-tools-list">
        {loaded.map(({ server, tool, enabled }) => (
          <li
            key={toolKey(server, tool)}
            className="loaded-tool"
            title={enabled ? `${server} › ${tool}` : t('chat.loaded.switchedOff', { server, tool })}
          >
            <span className="tool-call-server">{server}</span>
            <span className="muted" aria-hidden="true">
              {' › '}
            </span>
            <span className={enabled ? undefined : 'muted'}>{tool}</span>
            <IconButton
              size="sm"
              label={t('chat.loaded.remove', { tool })}
              icon={<CloseIcon />}
              onClick={() => void unload(conversationId, [toolKey(server, tool)])}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
