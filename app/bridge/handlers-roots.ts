import type { Handlers } from '../../shared/contract';
import type { rootsMethods } from '../../shared/contract/roots';
import { HostError } from '../../shared/result';
import { rootError } from '../../shared/domain/root-errors';
import type { RootsService } from '../roots/roots-service';

/** The roots methods of the contract. */
export type RootsHandlers = Pick<Handlers, keyof typeof rootsMethods>;

/** The person's roots: which folders exist as roots, which server sees which, and picking new ones. */
export function createRootsHandlers(roots: RootsService): RootsHandlers {
  return {
    // Listing looks at the disk again, so a folder deleted meanwhile shows up flagged.
    'roots.list': async () => roots.refresh(),
    'roots.add': async ({ path, name, confirmBroad }) => roots.store.add(path, name, { confirmBroad }),
    'roots.confirmTarget': async ({ id, confirmBroad }) => roots.store.confirmTarget(id, { confirmBroad }),
    'roots.rename': async ({ id, name }) => roots.store.rename(id, name),
    'roots.remove': async ({ id }) => {
      const removed = roots.store.get(id);
      if (removed === undefined)
        throw HostError.coded('NOT_FOUND', rootError('root-errors.removed-already', { id }), 'id');
      await roots.store.remove(id);
      return { removed };
    },
    'roots.restore': async ({ id }) => roots.store.restore(id),
    'roots.setExposure': async ({ server, exposure }) => {
      roots.requireServer(server);
      await roots.store.setExposure(server, exposure);
      return roots.view();
    },
    'roots.resetConsent': async ({ server, rootIds }) => {
      roots.requireServer(server);
      await roots.consent.resetConsent(server, rootIds);
      return roots.view();
    },
    'roots.browse': async ({ path }) => roots.browse(path),
    'roots.pickFolder': async () => ({ path: await roots.pickFolder() }),
  };
}
