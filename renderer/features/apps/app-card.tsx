import { useMemo } from 'react';
import { useBerth } from '../../store';
import type { ChatToolResultBlock, ChatToolUseBlock, ToolAppRef } from '../../../shared/domain/chat';
import { serverTools } from '../../../shared/domain/server-state-read';
import { AppFrame } from './app-frame';
import { cardOutcome } from './card-outcome';

/**
 * The app of one tool call in the chat (loaded on demand by the tool card):
 * given the call's input as sent, and its result from the live event or the
 * saved message (so a reload re-renders it).
 */
export default function AppCard({
  conversationId,
  use,
  app,
  result,
  liveInput,
  taskCancelled,
  onRunningChange,
}: {
  conversationId: string;
  use: ChatToolUseBlock;
  app: ToolAppRef;
  result: ChatToolResultBlock | undefined;
  liveInput: Record<string, unknown> | undefined;
  taskCancelled: boolean;
  onRunningChange?: (running: boolean) => void;
}) {
  const origin = useMemo(
    () => ({ server: use.server, conversationId, toolUseId: use.id }),
    [use.server, conversationId, use.id],
  );
  const outcome = useMemo(() => cardOutcome(result, taskCancelled), [result, taskCancelled]);
  const input = result?.sentInput ?? liveInput ?? use.input;
  const known = useBerth((s) => serverTools(s.servers[use.server]).find((t) => t.name === use.tool));
  const toolInfo = useMemo(
    () =>
      known === undefined
        ? undefined
        : {
            id: use.id,
            tool: {
              name: known.name,
              ...(known.title !== undefined ? { title: known.title } : {}),
              ...(known.description !== undefined ? { description: known.description } : {}),
              inputSchema: { type: 'object' as const, ...known.inputSchema },
            },
          },
    [known, use.id],
  );
  return (
    <AppFrame
      origin={origin}
      tool={use.tool}
      resourceUri={app.resourceUri}
      input={input}
      outcome={outcome}
      heightKey={`${conversationId}:${use.id}`}
      toolInfo={toolInfo}
      onRunningChange={onRunningChange}
    />
  );
}
