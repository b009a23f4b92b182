import { useEffect, useId, useRef } from 'react';
import { ResourceTemplateForm } from '../resources/resource-template-form';
import { Button } from '../../ui/controls';
import { PickerMenu } from './picker-menu';
import { mentionKey, mentionLabel, type MentionResource } from './mention-model';
import type { MentionCatalog } from './use-mention-resources';
import { T } from '../../i18n/t';
import { useT, type Translate } from '../../i18n/use-t';

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
  const t = useT();
  return (
    <PickerMenu
      listboxId={listboxId}
      title={t('chat.mention.title')}
      pickVerb={t('chat.picker.attach')}
      matches={matches}
      itemKey={mentionKey}
      renderItem={(resource) => (
        <>
          <span className="slash-option-main">
            <span className="slash-option-name">@{mentionLabel(resource)}</span>
            {resource.template !== undefined ? (
              <span className="slash-option-server">{t('chat.mention.template')}</span>
            ) : null}
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
      emptyMessage={emptyMessage(catalog, query, t)}
      problems={catalog.problems}
      problemsLabel={t('chat.mention.problems')}
    />
  );
}

function emptyMessage(catalog: MentionCatalog, query: string, t: Translate): string {
  if (catalog.servers.length === 0) return t('chat.mention.noServer');
  if (catalog.resources === undefined) return t('chat.mention.reading');
  if (catalog.resources.length === 0)
    return t('chat.mention.none', { servers: catalog.servers.join(', '), count: catalog.servers.length });
  return t('chat.mention.noMatch', { query });
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
  const t = useT();
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
          <T
            id="chat.mention.attachTitle"
            values={{ name: mentionLabel(resource), server: resource.server }}
            components={{ server: <span className="slash-option-server" /> }}
          />
        </span>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {t('chat.row.cancel')}
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
        submitLabel={t('chat.mention.attach')}
      />
    </div>
  );
}
