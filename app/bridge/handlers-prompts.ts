import type { Handlers } from '../../shared/contract';
import type { promptMethods } from '../../shared/contract/prompts';
import type { CompletionBroker } from '../workspace/completion-broker';
import type { PromptCatalogService } from '../workspace/prompt-catalog';

/** The prompt and completion methods of the contract. */
export type PromptHandlers = Pick<Handlers, keyof typeof promptMethods>;

export interface PromptHandlerDeps {
  prompts: PromptCatalogService;
  completions: CompletionBroker;
}

/** Prompts of ready servers (the slash menu) and argument suggestions (prompt forms, resource templates). */
export function createPromptHandlers({ prompts, completions }: PromptHandlerDeps): PromptHandlers {
  return {
    'prompts.list': async () => prompts.list(),
    'prompts.get': async ({ server, name, arguments: args }) => prompts.get(server, name, args),
    'completion.complete': async (request) => completions.complete(request),
  };
}
