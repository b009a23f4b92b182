import { useEffect, useId, useRef } from 'react';
import { ResourceTemplateForm } from '../resources/resource-template-form';
import { Button } from '../../ui/controls';
import { PickerMenu } from './picker-menu';
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
  return (
    <PickerMenu
      listboxId={listboxId}
      title="Resources"
      pickVerb="attach"
      matches={matches}
      itemKey={mentionKey}
      renderItem={(resource) => (
        <>
          <span className="slash-option-main">
            <span className="slash-option-name">@{mentionLabel(resource)}</span>
            {resource.template !== undefined ? <span className="slash-option-server">template</span> : null}
            <span className="slash-option-title mention-uri">{resource.uri}</span>
            <span className="slash-option-server">{resource.server}</span>
          </span>
          {resource.description !== undefined ? (
            <span className="slash-option-description">{resource.description}</span>
          ) : null}
        </>
      )}
      highlighted={highlighted}
      onHighlight={onHighlight}
      onChoose={onChoose}
      emptyMessage={emptyMessage(catalog, query)}
      problems={catalog.problems}
      problemsLabel="Servers whose resources could not be read"
    />
  );
}

function emptyMessage(catalog: MentionCatalog, query: string): string {
  if (catalog.servers.length === 0) {
    return 'No ready server offers resources. Start a server that has resources (for example server-everything) under Servers, then type @ again.';
  }
  if (catalog.resources === undefined) return 'Reading the resources of your servers…';
  if (catalog.resources.length === 0)
    return `${catalog.servers.join(', ')} ${catalog.servers.length === 1 ? 'lists' : 'list'} no resources right now.`;
  return `No resource matches “${query}”. Keep typing a message, or press Esc.`;
}

/**
 * A resource template chosen from the `@` menu: its variables (with the
 * server's suggestions, as in the resource browser), then Attach reads the
 * filled-in URI. Esc or Cancel goes back to the message box.
 */
export function MentionTemplateForm({
  resource,
  onAttach,
  onCancel,
}: {
  resource: MentionResource;
  onAttach: (uri: string) => void;
  onCancel: () => void;
}) {
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
        template={{
          uriTemplate: resource.uri,
          name: resource.name,
          ...(resource.title !== undefined ? { title: resource.title } : {}),
        }}
        completions={resource.template?.completions ?? false}
        onOpen={onAttach}
        submitLabel="Attach"
      />
    </div>
  );
}
