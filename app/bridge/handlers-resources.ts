import type { Handlers } from '../../shared/contract';
import type { resourceMethods } from '../../shared/contract/resources';
import type { ResourceService } from '../workspace/resource-service';

/** The resource-browser methods of the contract. */
export type ResourceHandlers = Pick<Handlers, keyof typeof resourceMethods>;

/** Lists, reads and subscriptions of one server's resources. */
export function createResourceHandlers(resources: ResourceService): ResourceHandlers {
  return {
    'resources.list': async ({ server, cursor }) => resources.list(server, cursor),
    'resources.templates': async ({ server, cursor }) => resources.templates(server, cursor),
    'resources.read': async ({ server, uri }) => resources.read(server, uri),
    'resources.subscribe': async ({ server, uri }) => resources.subscribe(server, uri),
    'resources.unsubscribe': async ({ server, uri }) => resources.unsubscribe(server, uri),
    'resources.subscriptions': async ({ server }) => ({ subscribed: resources.subscribed(server) }),
  };
}
