import { createPromptHandlers } from '../../bridge/handlers-prompts';
import { createResourceHandlers } from '../../bridge/handlers-resources';
import { CompletionBroker } from '../../workspace/completion-broker';
import { PromptCatalogService } from '../../workspace/prompt-catalog';
import { ResourceService } from '../../workspace/resource-service';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** What the servers offer besides tools: the prompt catalog, argument completions, resources and their subscriptions. */
export const workspaceModule: HostModule<HostContext> = {
  name: 'workspace',
  phase: 'features',
  open({ services, events, lifecycle, bridgeHandlers }, scope) {
    const supervisor = services.get('supervisor');
    const prompts = services.provide(
      'prompts',
      new PromptCatalogService({ servers: supervisor, onChange: (catalog) => events.emit('prompts.changed', catalog) }),
    );
    const completions = services.provide('completions', new CompletionBroker(supervisor));
    const resources = services.provide(
      'resources',
      new ResourceService({
        servers: supervisor,
        onUpdated: (server, uri) => events.emit('resources.updated', { server, uri }),
        logs: services.get('logs'),
      }),
    );
    lifecycle.register(prompts);
    lifecycle.register(resources);
    lifecycle.register({ shuttingDown: () => completions.close() });
    bridgeHandlers.register(scope.module, () => ({
      ...createPromptHandlers({ prompts, completions }),
      ...createResourceHandlers(resources),
    }));
  },
};
