import { createProvidersHandlers } from '../../bridge/handlers-providers';
import { createProviders } from '../../providers/create-providers';
import { catalogCandidates } from '../../sampling/candidate-models';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The model providers chat and sampling call (Anthropic's, and the OpenAI-compatible ones in settings). */
export const providersModule: HostModule<HostContext> = {
  name: 'providers',
  phase: 'foundation',
  open({ services, events, bridgeHandlers }, scope) {
    const settings = services.get('settings');
    const { anthropic, registry } = createProviders({ settings, events });
    services.provide('anthropic', anthropic);
    services.provide('providers', registry);
    bridgeHandlers.register(scope.module, () => createProvidersHandlers({ settings, providers: registry }));
    // Sampling answers with any ready provider's model, through the same router as chat.
    services.provide('samplingModels', {
      llm: registry.router,
      samplingModels: catalogCandidates(settings),
      llmReady: () => settings.catalog().some((model) => model.ready),
    });
  },
};
