import type { PromptCatalog, PromptInfo } from '../../../shared/contract/prompts';
import { PickerMenu } from './picker-menu';
import { promptKey, promptLabel } from './slash-model';
import { useT, type Translate } from '../../i18n/use-t';

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
  const t = useT();
  return (
    <PickerMenu
      listboxId={listboxId}
      title={t('chat.slash.title')}
      pickVerb={t('chat.picker.choose')}
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
      emptyMessage={emptyMessage(catalog, catalogError, query, t)}
      problems={catalog?.problems ?? []}
      problemsLabel={t('chat.slash.problems')}
    />
  );
}

function emptyMessage(
  catalog: PromptCatalog | undefined,
  error: string | undefined,
  query: string,
  t: Translate,
): string {
  if (error !== undefined) return t('chat.slash.readFailed', { error });
  if (catalog === undefined) return t('chat.slash.reading');
  if (catalog.servers.length === 0) return t('chat.slash.noServer');
  if (catalog.prompts.length === 0)
    return t('chat.slash.nonePrompts', {
      servers: catalog.servers.map((server) => server.name).join(', '),
      count: catalog.servers.length,
    });
  return t('chat.slash.noMatch', { query });
}
