import type { Handlers } from '../../shared/contract';
import { bundleError } from '../../shared/domain/bundle-errors';
import type { bundlesMethods } from '../../shared/contract/bundles';
import type { ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import type { BundleService } from '../bundles/bundle-service';

/** The bundle methods of the contract. */
export type BundleHandlers = Pick<Handlers, keyof typeof bundlesMethods>;

export interface BundleHandlerDeps {
  service: BundleService;
  /** The server handlers: an installed bundle is saved, started and removed exactly like any other server (secrets, sync, approvals). */
  servers: Pick<Handlers, 'servers.add' | 'servers.update' | 'servers.remove'>;
  rawServer(name: string): ServerConfig | undefined;
}

/** Open, review, install and uninstall MCP Bundles. */
export function createBundleHandlers(deps: BundleHandlerDeps): BundleHandlers {
  const { service, servers } = deps;
  return {
    'bundles.upload': async ({ uploadId, data }) => service.upload(uploadId, data),
    'bundles.inspect': async ({ source }) => service.inspect(source),
    'bundles.review': async ({ stageId, name, values }) => service.review(stageId, name, values),
    'bundles.install': async ({ stageId, name, values, sandbox, confirmed }) => {
      const prepared = await service.prepareInstall(stageId, name, values, confirmed);
      try {
        const state =
          prepared.updates === undefined
            ? await servers['servers.add']({
                name,
                config: prepared.config,
                ...(sandbox === undefined ? {} : { sandbox }),
              })
            : await servers['servers.update']({ name, config: prepared.config });
        await prepared.commit();
        return state;
      } catch (error) {
        await prepared.rollback();
        throw error;
      }
    },
    'bundles.discard': async ({ stageId }) => ({ discarded: await service.discard(stageId) }),
    'bundles.uninstall': async ({ name }) => {
      const config = deps.rawServer(name);
      if (config === undefined)
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'name');
      if (config.bundle === undefined)
        throw HostError.coded('INVALID_INPUT', bundleError('bundle-errors.not-from-bundle', { server: name }), 'name');
      // servers.remove deletes the folder too (the servers module, app/host/capabilities/servers.ts), and the server's secrets.
      return servers['servers.remove']({ name });
    },
  };
}
