import type { Handlers } from '../../shared/contract';
import type { registryMethods } from '../../shared/contract/registry';
import type { RegistryService } from '../registry/registry-service';
import type { ServerHandlers } from './handlers-servers';

/** The registry methods of the contract. */
export type RegistryHandlers = Pick<Handlers, keyof typeof registryMethods>;

export interface RegistryHandlerDeps {
  service: RegistryService;
  /** Installs and updates are saved exactly as the server form saves: secrets to the store, approvals asked again for a new command. */
  servers: Pick<ServerHandlers, 'servers.add' | 'servers.update'>;
}

/** Discover: search and read registries, review and install entries, update installed ones. */
export function createRegistryHandlers({ service, servers }: RegistryHandlerDeps): RegistryHandlers {
  return {
    'registry.sources': async () => ({ registries: await service.sources() }),
    'registry.setSources': async ({ registries }) => ({ registries: await service.setSources(registries) }),
    'registry.search': async ({ registry, query, cursor, limit }) => service.search(registry, query, cursor, limit),
    'registry.details': async ({ registry, name, version }) => service.details(registry, name, version),
    'registry.versions': async ({ registry, name }) => service.versions(registry, name),
    'registry.review': async (request) => service.review(request),
    'registry.install': async ({ reviewId, sandbox, confirmed }) => {
      const taken = service.takeReview(reviewId, sandbox, confirmed);
      if (!taken.installed) return taken;
      // The person confirmed the review: the server is added enabled, so it starts now.
      await servers['servers.add']({
        name: taken.serverName,
        config: taken.config,
        ...(sandbox === undefined ? {} : { sandbox }),
      });
      return { installed: true, server: taken.serverName };
    },
    'registry.updates': async () => service.updates(),
    'registry.update': async ({ server }) => {
      const { config, version } = await service.prepareUpdate(server);
      await servers['servers.update']({ name: server, config });
      return { server, version };
    },
  };
}
