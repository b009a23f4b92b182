import type { Handlers } from '../../shared/contract';
import type { sandboxMethods } from '../../shared/contract/sandbox';
import type { SandboxService } from '../sandbox/sandbox-service';

/** The sandbox methods of the contract. */
export type SandboxHandlers = Pick<Handlers, keyof typeof sandboxMethods>;

/** The OS sandbox of local servers (app/sandbox/). */
export function createSandboxHandlers(service: SandboxService): SandboxHandlers {
  return {
    'sandbox.support': async () => service.supportNow(true),
    'sandbox.serverSettings': async () => service.list(),
    'sandbox.setServerSettings': async ({ server, ...patch }) => {
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      return service.update(server, defined);
    },
    'sandbox.policy': async ({ server }) => service.policyView(server),
    'sandbox.allow': async ({ server, folder, domain }) =>
      service.allow(server, folder !== undefined ? { folder } : { domain: domain ?? '' }),
    'sandbox.denials': async ({ server }) => service.recentDenials(server),
  };
}
