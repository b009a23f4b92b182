import type { PromptCatalog, PromptInfo } from '../../../shared/contract/prompts';
import { PickerMenu } from './picker-menu';
import { promptKey, promptLabel } from './slash-model';

/**
 * The prompts matching what follows the `/`, as a listbox tied to the message
 * box (which keeps focus: ↑↓ move, Enter or Tab choose, Esc closes). When
 * there is nothing to choose it says why and what to do.
 */
export function SlashMenu({
  listboxId,
  catalog,
  catalogError,
  query,
  matches,
  highlighted,
  onHighlight,
  onChoose,
}: {
  listboxId: string;
  catalog: PromptCatalog | undefined;
  catalogError: string | undefined;
  query: string;
  matches: PromptInfo[];
  highlighted: number;
  onHighlight: (index: number) => void;
  onChoose: (prompt: PromptInfo) => void;
}) {
  return (
    <PickerMenu
      listboxId={listboxId}
      title="Prompts"
      pickVerb="choose"
      matches={matches}
      itemKey={promptKey}
      renderItem={(prompt) => (
        <>
          <span className="slash-option-main">
            <span className="slash-option-name">/{prompt.name}</span>
            {prompt.title !== undefined && prompt.title !== prompt.name ? (
              <span className="slash-option-title">{promptLabel(prompt)}</span>
            ) : null}
            <span className="slash-option-server">{prompt.server}</span>
          </span>
          {prompt.description !== undefined ? (
            <span className="slash-option-description">{prompt.description}</span>
          ) : null}
        </>
      )}
      highlighted={highlighted}
      onHighlight={onHighlight}
      onChoose={onChoose}
      emptyMessage={emptyMessage(catalog, catalogError, query)}
      problems={catalog?.problems ?? []}
      problemsLabel="Servers whose prompts could not be read"
    />
  );
}

function emptyMessage(catalog: PromptCatalog | undefined, error: string | undefined, query: string): string {
  if (error !== undefined) return `Could not read the prompts: ${error}`;
  if (catalog === undefined) return 'Reading the prompts of your servers…';
  if (catalog.servers.length === 0) {
    return 'No ready server offers prompts. Start a server that has prompts (for example server-everything) under Servers, then type / again.';
  }
  if (catalog.prompts.length === 0)
    return `${catalog.servers.map((server) => server.name).join(', ')} ${catalog.servers.length === 1 ? 'has' : 'have'} no prompts right now.`;
  return `No prompt matches “${query}”. Keep typing a message, or press Esc.`;
}
