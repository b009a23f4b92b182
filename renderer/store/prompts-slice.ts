import type { PromptsSlice, SliceCreator } from './types';

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
