import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useBerth } from '../../store';
import { filterMentions, mentionLabel, mentionToken, removeMention, type MentionResource } from './mention-model';
import { useComboboxMenu } from '../../ui/use-combobox-menu';

// The menu, the template form and the attachment mapping load when first used (after an `@`): the
// composer is on the first screen, and its JavaScript budget has no room for them.
const MentionMenu = lazy(async () => ({ default: (await import('./mention-menu')).MentionMenu }));
const MentionTemplateForm = lazy(async () => ({ default: (await import('./mention-menu')).MentionTemplateForm }));
import { useMentionResources } from './use-mention-resources';
import { useT } from '../../i18n/use-t';
import { failureWords, words, wordsText, type Words } from '../../i18n/words';

export interface Mentions {
  /** The menu (or what attaching is doing), shown above the message box; null when neither. */
  panel: ReactNode;
  /** ARIA for the message box while the menu is open (it becomes the menu's combobox). */
  inputProps: Record<string, string | boolean | undefined>;
  /** Give each keydown of the message box here first; true when the menu used it. */
  handleKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Tell the menu where the caret is (after typing, clicking or moving it). */
  trackCaret: (box: HTMLTextAreaElement) => void;
}

type Attaching = { state: 'reading'; label: string } | { state: 'failed'; label: string; message: Words };

/**
 * `@` in the message box: lists the resources of every ready server, filtered
 * by what follows the `@`; choosing one reads it and attaches it to the draft
 * exactly as the resource browser's "Attach to chat" does (a chip above the
 * text), and takes the `@query` out of the text.
 */
export function useMentions(
  conversationId: string,
  text: string,
  input: RefObject<HTMLTextAreaElement | null>,
  suppressed: boolean,
): Mentions {
  const t = useT();
  const readResource = useBerth((s) => s.readResource);
  const attachToComposer = useBerth((s) => s.attachToComposer);
  const setComposerText = useBerth((s) => s.setComposerText);
  const [caret, setCaret] = useState<number>(text.length);
  const [attaching, setAttaching] = useState<Attaching>();
  /** A template chosen from the menu, being filled in; the caret goes back where the `@` was. */
  const [template, setTemplate] = useState<{ resource: MentionResource; caret: number }>();

  const token = useMemo(
    () => (suppressed ? undefined : mentionToken(text, Math.min(caret, text.length))),
    [suppressed, text, caret],
  );
  const menu = useComboboxMenu({ wanted: token !== undefined && template === undefined, text, query: token?.query });
  const menuOpen = menu.open;
  const catalog = useMentionResources(menuOpen);
  const matches = useMemo(
    () => (token === undefined ? [] : filterMentions(catalog.resources ?? [], token.query)),
    [catalog.resources, token],
  );

  useEffect(() => {
    setAttaching(undefined);
    setTemplate(undefined);
  }, [conversationId]);

  const focusInput = (at: number) =>
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(at, at);
    });

  const choose = async (resource: MentionResource) => {
    if (token === undefined) return;
    const next = removeMention(text, token);
    setComposerText(conversationId, next.text);
    setCaret(next.caret);
    if (resource.template !== undefined) {
      // A template is filled in first; its form takes the focus.
      setTemplate({ resource, caret: next.caret });
      return;
    }
    focusInput(next.caret);
    await attach(resource.server, resource.uri, mentionLabel(resource));
  };

  const closeTemplate = () => {
    if (template !== undefined) focusInput(template.caret);
    setTemplate(undefined);
  };

  const attach = async (server: string, uri: string, label: string) => {
    setAttaching({ state: 'reading', label });
    const read = await readResource({ server, uri });
    if (!read.ok) {
      setAttaching({ state: 'failed', label, message: failureWords(read) });
      return;
    }
    if (read.value.contents.length === 0) {
      setAttaching({ state: 'failed', label, message: words('chat.mention.noContent', { server }) });
      return;
    }
    const { resourceAttachments } = await import('../resources/resource-model');
    attachToComposer(conversationId, resourceAttachments(server, label, read.value.contents));
    setAttaching(undefined);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean =>
    menu.handleKeyDown(event, matches, (resource) => void choose(resource));

  let panel: ReactNode = null;
  if (template !== undefined) {
    const { resource } = template;
    panel = (
      <MentionTemplateForm
        resource={resource}
        onCancel={closeTemplate}
        onAttach={(uri) => {
          closeTemplate();
          void attach(resource.server, uri, uri);
        }}
      />
    );
  } else if (menuOpen && token !== undefined) {
    panel = (
      <MentionMenu
        listboxId={menu.listboxId}
        catalog={catalog}
        query={token.query}
        matches={matches}
        highlighted={menu.highlighted}
        onHighlight={menu.setHighlighted}
        onChoose={(resource) => void choose(resource)}
      />
    );
  } else if (attaching?.state === 'reading') {
    panel = (
      <p className="composer-note muted small" role="status">
        {t('chat.mention.attaching', { label: attaching.label })}
      </p>
    );
  } else if (attaching?.state === 'failed') {
    panel = (
      <p className="field-error composer-note" role="alert">
        {t('chat.mention.attachFailed', { label: attaching.label, message: wordsText(attaching.message, t) })}
      </p>
    );
  }

  const inputProps = menu.inputProps(matches);
  return {
    panel: panel === null ? null : <Suspense fallback={null}>{panel}</Suspense>,
    inputProps,
    handleKeyDown,
    trackCaret: (box) => setCaret(box.selectionStart),
  };
}
