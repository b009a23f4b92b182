import type { MethodInput } from '../../shared/contract';
import type { CompletionResult, PromptCatalog, PromptResult } from '../../shared/contract/prompts';
import type { Result } from '../../shared/result';
import type { SliceCreator } from './types';

/** Prompts of ready servers (host-owned, read-only here) and the calls that use them. */
export interface PromptsSlice {
  /** Undefined until the first answer. */
  promptCatalog: PromptCatalog | undefined;
  /** Why the catalog could not be read, shown in the slash menu. */
  promptCatalogError: string | undefined;
  applyPromptCatalog(catalog: PromptCatalog): void;
  loadPrompts(): Promise<void>;
  getPrompt(input: MethodInput<'prompts.get'>): Promise<Result<PromptResult>>;
  completeArgument(input: MethodInput<'completion.complete'>): Promise<Result<CompletionResult>>;
}

export const createPromptsSlice: SliceCreator<PromptsSlice> = (transport) => (set, get) => ({
  promptCatalog: undefined,
  promptCatalogError: undefined,

  applyPromptCatalog(catalog) {
    set({ promptCatalog: catalog, promptCatalogError: undefined });
  },
  async loadPrompts() {
    const result = await transport.call('prompts.list', {});
    if (result.ok) get().applyPromptCatalog(result.value);
    else set({ promptCatalogError: result.message });
  },
  getPrompt: (input) => transport.call('prompts.get', input),
  completeArgument: (input) => transport.call('completion.complete', input),
});
