import clsx from 'clsx';
import { useEffect, useId, useRef } from 'react';
import { ResourceTemplateForm } from '../resources/resource-template-form';
import { Button } from '../shell/controls';
import { slashOptionId } from './slash-model';
import { mentionKey, mentionLabel, type MentionResource } from './mention-model';
import type { MentionCatalog } from './use-mention-resources';

/**
 * The resources matching what follows the `@`, as a listbox tied to the
 * message box — the same shape and keys as the `/` prompt menu (↑↓ move,
 * Enter or Tab attach, Esc closes). When there is nothing to choose it says
 * why and what to do.
 */
export function MentionMenu({
  listboxId,
  catalog,
  query,
  matches,
  highlighted,
  onHighlight,
  onChoose,
}: {
  listboxId: string;
  catalog: MentionCatalog;
  query: string;
  matches: MentionResource[];
  highlighted: number;
  onHighlight: (index: number) => void;
  onChoose: (resource: MentionResource) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const titleId = useId();
  useEffect(() => {
    list.current?.children[highlighted]?.scrollIntoView({ block: 'nearest' });
  }, [highlighted]);

  return (
    <div className="slash-panel" role="group" aria-labelledby={titleId}>
      <div className="slash-head">
        <span className="slash-title" id={titleId}>
          Resources
        </span>
        <span className="slash-keys" aria-hidden="true">
          <kbd>↑</kbd>
          <kbd>↓</kbd> move · <kbd>Enter</kbd> attach · <kbd>Esc</kbd> close
        </span>
      </div>
      {matches.length > 0 ? (
        <ul ref={list} id={listboxId} role="listbox" aria-label="Resources" className="slash-list">
          {matches.map((resource, index) => (
            <li
              key={mentionKey(resource)}
              id={slashOptionId(listboxId, index)}
              role="option"
              aria-selected={index === highlighted}
              className={clsx('slash-option', index === highlighted && 'slash-option-active')}
              // mousedown, not click: the message box must keep focus.
              onMouseDown={(e) => {
                e.preventDefault();
                onChoose(resource);
              }}
              onMouseMove={() => {
                if (index !== highlighted) onHighlight(index);
              }}
            >
              <span className="slash-option-main">
                <span className="slash-option-name">@{mentionLabel(resource)}</span>
                {resource.template !== undefined ? <span className="slash-option-server">template</span> : null}
                <span className="slash-option-title mention-uri">{resource.uri}</span>
                <span className="slash-option-server">{resource.server}</span>
              </span>
              {resource.description !== undefined ? <span className="slash-option-description">{resource.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p id={listboxId} className="slash-empty" role="status">
          {emptyMessage(catalog, query)}
        </p>
      )}
      {catalog.problems.length > 0 ? (
        <ul className="slash-problems" aria-label="Servers whose resources could not be read">
          {catalog.problems.map((problem) => (
            <li key={problem.server} className="field-error">
              {problem.server}: {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function emptyMessage(catalog: MentionCatalog, query: string): string {
  if (catalog.servers.length === 0) {
    return 'No ready server offers resources. Start a server that has resources (for example server-everything) under Servers, then type @ again.';
  }
  if (catalog.resources === undefined) return 'Reading the resources of your servers…';
  if (catalog.resources.length === 0) return `${catalog.servers.join(', ')} ${catalog.servers.length === 1 ? 'lists' : 'list'} no resources right now.`;
  return `No resource matches “${query}”. Keep typing a message, or press Esc.`;
}

/**
 * A resource template chosen from the `@` menu: its variables (with the
 * server's suggestions, as in the resource browser), then Attach reads the
 * filled-in URI. Esc or Cancel goes back to the message box.
 */
export function MentionTemplateForm({ resource, onAttach, onCancel }: { resource: MentionResource; onAttach: (uri: string) => void; onCancel: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    box.current?.querySelector('input')?.focus();
  }, []);
  return (
    <div
      ref={box}
      className="slash-panel mention-template"
      role="group"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onCancel();
      }}
    >
      <div className="slash-head">
        <span className="slash-title" id={titleId}>
          Attach {mentionLabel(resource)} <span className="slash-option-server">{resource.server}</span>
        </span>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
      <ResourceTemplateForm
        server={resource.server}
        template={{ uriTemplate: resource.uri, name: resource.name, ...(resource.title !== undefined ? { title: resource.title } : {}) }}
        completions={resource.template?.completions ?? false}
        onOpen={onAttach}
        submitLabel="Attach"
      />
    </div>
  );
}
