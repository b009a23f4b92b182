import { useEffect } from 'react';
import { toolKey } from '../../../shared/domain/chat-text';
import { useBerth } from '../../store';
import { IconButton } from '../shell/controls';
import { CloseIcon } from '../shell/icons';

/**
 * "Loaded by the model: …" above the message box, while tool search is on in this conversation:
 * the tools the model loaded (their definitions go with every request), each removable. Loaded
 * lazily from chat-view.tsx, only where tool search is on or something is loaded.
 */
export default function LoadedToolsStrip({ conversationId, messageCount }: { conversationId: string; messageCount: number }) {
  const toolSearch = useBerth((s) => s.conversationTools[conversationId]?.toolSearch);
  const load = useBerth((s) => s.loadConversationTools);
  const unload = useBerth((s) => s.unloadTools);
  // The model loads tools in a turn: each saved message may have changed the list.
  useEffect(() => {
    if (messageCount > 0) void load(conversationId);
  }, [conversationId, messageCount, load]);
  if (toolSearch === undefined) return null;
  const { loaded } = toolSearch;
  return (
    <div className="loaded-tools" role="region" aria-label="Loaded by the model">
      <span className="loaded-tools-label">
        {loaded.length === 0 ? 'Tool search is on: the model has loaded no tool yet.' : toolSearch.active ? 'Loaded by the model:' : 'Loaded by the model (tool search is off now: every enabled tool is sent):'}
      </span>
      <ul className="loaded-tools-list">
        {loaded.map(({ server, tool, enabled }) => (
          <li key={toolKey(server, tool)} className="loaded-tool" title={enabled ? `${server} › ${tool}` : `${server} › ${tool} is switched off: not sent until it is on again`}>
            <span className="tool-call-server">{server}</span>
            <span className="muted" aria-hidden="true">
              {' › '}
            </span>
            <span className={enabled ? undefined : 'muted'}>{tool}</span>
            <IconButton size="sm" label={`Remove ${tool} (loaded by the model)`} icon={<CloseIcon />} onClick={() => void unload(conversationId, [toolKey(server, tool)])} />
          </li>
        ))}
      </ul>
    </div>
  );
}
