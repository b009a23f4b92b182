import type { ListChangedHandlers } from '@modelcontextprotocol/client';

/**
 * The lists whose changes a server announces (`notifications/<kind>/list_changed`)
 * and Berth follows. A new kind is added here, declared by the connection
 * (below) and handled by the one service that wants it.
 */
export const LIST_KINDS = ['tools', 'prompts', 'resources'] as const satisfies readonly (keyof ListChangedHandlers)[];
export type ListKind = (typeof LIST_KINDS)[number];

/** "tool list change: …": one item of the list, as the server's log names it. */
const ITEM_WORDS: Record<ListKind, string> = { tools: 'tool', prompts: 'prompt', resources: 'resource' };

/**
 * The SDK client's `listChanged` option for every kind: declared so a
 * modern-era connection subscribes to those changes too, with the SDK's
 * auto-refresh off, because whoever wants a list re-reads it their own way
 * (tools every page with each tool checked, the prompt catalog, the resource
 * browser's page). A change goes to `changed`; one the SDK could not follow
 * goes to `warn`, in words.
 */
export function listChangedOptions(changed: (kind: ListKind) => void, warn: (text: string) => void): ListChangedHandlers {
  const options: ListChangedHandlers = {};
  for (const kind of LIST_KINDS) {
    options[kind] = {
      autoRefresh: false,
      onChanged: (error: Error | null) => {
        if (error !== null) warn(`${ITEM_WORDS[kind]} list change: ${error.message}`);
        else changed(kind);
      },
    };
  }
  return options;
}
