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
import type { PromptInfo } from '../../../shared/contract/prompts';
import { useBerth } from '../../store';
import type { ArgumentValues } from './prompt-form-model';
import type { PromptRefusal } from './prompt-form';
import { useComboboxMenu } from '../../ui/use-combobox-menu';
import { filterPrompts, promptKey, slashQuery } from './slash-model';

// The argument form (with its completion machinery) loads once a prompt is chosen: the composer is on the first screen.
const SlashMenu = lazy(async () => ({ default: (await import('./slash-menu')).SlashMenu }));
const PromptForm = lazy(async () => ({ default: (await import('./prompt-form')).PromptForm }));

export interface SlashCommands {
  /** The menu or the argument form, shown above the message box; null when neither is open. */
  panel: ReactNode;
  /** ARIA for the message box while the menu is open (it becomes the menu's combobox). */
  inputProps: Record<string, string | boolean | undefined>;
  /** Give each keydown of the message box here first; true when the menu used it. */
  handleKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
}

/**
 * Slash commands in the message box: `/` at the start lists every prompt of
 * every ready server, filtered as the person types; choosing one opens its
 * argument form, and the prompt's messages land in the draft to be sent.
 */
export function useSlashCommands(
  conversationId: string,
  text: string,
  input: RefObject<HTMLTextAreaElement | null>,
): SlashCommands {
  const catalog = useBerth((s) => s.promptCatalog);
  const catalogError = useBerth((s) => s.promptCatalogError);
  const loadPrompts = useBerth((s) => s.loadPrompts);
  const getPrompt = useBerth((s) => s.getPrompt);
  const setComposerText = useBerth((s) => s.setComposerText);
  const insertIntoComposer = useBerth((s) => s.insertIntoComposer);
  const attachToComposer = useBerth((s) => s.attachToComposer);
  const [chosen, setChosen] = useState<{ prompt: PromptInfo; previousText: string }>();

  const query = slashQuery(text);
  const menu = useComboboxMenu({ wanted: chosen === undefined && query !== undefined, text, query });
  const menuOpen = menu.open;
  const matches = useMemo(
    () => (query === undefined ? [] : filterPrompts(catalog?.prompts ?? [], query)),
    [catalog, query],
  );

  useEffect(() => setChosen(undefined), [conversationId]);
  // The catalog follows host events; a failed first read is retried when the person opens the menu.
  useEffect(() => {
    if (menuOpen && catalogError !== undefined) void loadPrompts();
  }, [menuOpen, catalogError, loadPrompts]);

  const focusInput = () => requestAnimationFrame(() => input.current?.focus());

  const choose = (prompt: PromptInfo) => {
    setChosen({ prompt, previousText: text });
    // The "/query" was only a search; the prompt's text replaces it.
    setComposerText(conversationId, '');
  };

  const cancelForm = () => {
    if (chosen !== undefined) setComposerText(conversationId, chosen.previousText);
    setChosen(undefined);
    focusInput();
  };

  const submit = async (prompt: PromptInfo, args: ArgumentValues): Promise<PromptRefusal | undefined> => {
    const result = await getPrompt({ server: prompt.server, name: prompt.name, arguments: args });
    if (!result.ok) return { kind: 'failed', failure: result };
    const { promptResultToDraft } = await import('./prompt-form-model');
    const draft = promptResultToDraft(prompt, result.value);
    if (draft.text === '' && draft.attachments.length === 0) return { kind: 'empty' };
    if (draft.text !== '') insertIntoComposer(conversationId, draft.text);
    if (draft.attachments.length > 0) attachToComposer(conversationId, draft.attachments);
    setChosen(undefined);
    focusInput();
    return undefined;
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean =>
    menu.handleKeyDown(event, matches, choose);

  let panel: ReactNode = null;
  if (chosen !== undefined) {
    const server = catalog?.servers.find((entry) => entry.name === chosen.prompt.server);
    panel = (
      <Suspense fallback={null}>
        <PromptForm
          key={promptKey(chosen.prompt)}
          prompt={chosen.prompt}
          completions={server?.completions ?? false}
          onSubmit={(args) => submit(chosen.prompt, args)}
          onCancel={cancelForm}
        />
      </Suspense>
    );
  } else if (menuOpen && query !== undefined) {
    panel = (
      <Suspense fallback={null}>
        <SlashMenu
          listboxId={menu.listboxId}
          catalog={catalog}
          catalogError={catalogError}
          query={query}
          matches={matches}
          highlighted={menu.highlighted}
          onHighlight={menu.setHighlighted}
          onChoose={choose}
        />
      </Suspense>
    );
  }

  const inputProps = menu.inputProps(matches);
  return { panel, inputProps, handleKeyDown };
}
