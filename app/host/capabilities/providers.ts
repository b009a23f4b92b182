import { createProviders } from '../../providers/create-providers';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The model providers chat and sampling call (Anthropic's, and the OpenAI-compatible ones in settings). */
export const providersModule: HostModule<HostContext> = {
  name: 'providers',
  phase: 'foundation',
  open({ services, events }) {
    const { anthropic, registry, sampling } = createProviders({ settings: services.get('settings'), events });
    services.provide('anthropic', anthropic);
    services.provide('providers', registry);
    services.provide('samplingModels', sampling);
  },
};
