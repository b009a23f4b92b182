import type { RootsAsk, RootsConsent } from './roots-consent';
import type { RootsStore } from './roots-store';
import { pathToFileUri } from './file-uri';

/** Options for {@linkcode createRootsListHandler}. */
export interface RootsListHandlerOptions {
  store: RootsStore;
  consent: RootsConsent;
  /** Asks the person about roots a server has not seen yet (the host backs it with a pending request). */
  ask: RootsAsk;
  /** URI flavour; must match the store's (default `process.platform`). */
  platform?: NodeJS.Platform;
}

/** One root as `roots/list` reports it. */
// Type aliases, not interfaces: the SDK's result type has an index signature an interface would not satisfy.
export type ListedRoot = {
  uri: string;
  name: string;
};

/** What a server's `roots/list` request is answered with. */
export type RootsListAnswer = {
  roots: ListedRoot[];
};

/**
 * The body of a client's `roots/list` handler: the roots this server may see
 * and the person allowed, as `file://` URIs of folders that exist right now.
 * Register it per server from the supervisor's `clientSetup`.
 */
export function createRootsListHandler(
  options: RootsListHandlerOptions,
): (server: string, signal?: AbortSignal) => Promise<RootsListAnswer> {
  const platform = options.platform ?? process.platform;
  return async (server, signal) => {
    // Look at the disk now: a folder removed since the last check must not be handed out.
    await options.store.check();
    const roots = await options.consent.visibleRoots(server, options.ask, signal);
    return { roots: roots.map((root) => ({ uri: pathToFileUri(root.path, platform), name: root.name })) };
  };
}
