import clsx from 'clsx';
import { useEffect, useId, useRef } from 'react';
import type { PromptCatalog, PromptInfo } from '../../../shared/contract/prompts';
import { promptKey, promptLabel, slashOptionId } from './slash-model';

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
  const list = useRef<HTMLUListElement>(null);
  const titleId = useId();
  useEffect(() => {
    list.current?.children[highlighted]?.scrollIntoView({ block: 'nearest' });
  }, [highlighted]);

  const problems = catalog?.problems ?? [];
  return (
    <div className="slash-panel" role="group" aria-labelledby={titleId}>
      <div className="slash-head">
        <span className="slash-title" id={titleId}>
          Prompts
        </span>
        <span className="slash-keys" aria-hidden="true">
          <kbd>↑</kbd>
          <kbd>↓</kbd> move · <kbd>Enter</kbd> choose · <kbd>Esc</kbd> close
        </span>
      </div>
      {matches.length > 0 ? (
        <ul ref={list} id={listboxId} role="listbox" aria-label="Prompts" className="slash-list">
          {matches.map((prompt, index) => (
            <li
              key={promptKey(prompt)}
              id={slashOptionId(listboxId, index)}
              role="option"
              aria-selected={index === highlighted}
              className={clsx('slash-option', index === highlighted && 'slash-option-active')}
              // mousedown, not click: the message box must keep focus.
              onMouseDown={(e) => {
                e.preventDefault();
                onChoose(prompt);
              }}
              onMouseMove={() => {
                if (index !== highlighted) onHighlight(index);
              }}
            >
              <span className="slash-option-main">
                <span className="slash-option-name">/{prompt.name}</span>
                {prompt.title !== undefined && prompt.title !== prompt.name ? <span className="slash-option-title">{promptLabel(prompt)}</span> : null}
                <span className="slash-option-server">{prompt.server}</span>
              </span>
              {prompt.description !== undefined ? <span className="slash-option-description">{prompt.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p id={listboxId} className="slash-empty" role="status">
          {emptyMessage(catalog, catalogError, query)}
        </p>
      )}
      {problems.length > 0 ? (
        <ul className="slash-problems" aria-label="Servers whose prompts could not be read">
          {problems.map((problem) => (
            <li key={problem.server} className="field-error">
              {problem.server}: {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function emptyMessage(catalog: PromptCatalog | undefined, error: string | undefined, query: string): string {
  if (error !== undefined) return `Could not read the prompts: ${error}`;
  if (catalog === undefined) return 'Reading the prompts of your servers…';
  if (catalog.servers.length === 0) {
    return 'No ready server offers prompts. Start a server that has prompts (for example server-everything) under Servers, then type / again.';
  }
  if (catalog.prompts.length === 0) return `${catalog.servers.map((server) => server.name).join(', ')} ${catalog.servers.length === 1 ? 'has' : 'have'} no prompts right now.`;
  return `No prompt matches “${query}”. Keep typing a message, or press Esc.`;
}
