import type { Handlers } from '../../shared/contract';
import { HostError } from '../../shared/result';
import type { SandboxService } from '../sandbox/sandbox-service';

type ServerAdd = Handlers['servers.add'];
type AddInput = Parameters<ServerAdd>[0];

export interface SandboxOnAddDeps {
  add: ServerAdd;
  update: Handlers['servers.update'];
  remove: Handlers['servers.remove'];
  sandbox: Pick<SandboxService, 'supportNow' | 'update'>;
}

/**
 * `servers.add` with the sandbox chosen in the form or a review stored
 * before the server's first start: a server meant to run sandboxed must
 * never run a moment without it. The sandbox keeps settings only for
 * servers it knows, so the server is added stopped, given its setting, and
 * only then started (when it was to start at all). A refused setting
 * (the sandbox unavailable, a bad folder) leaves nothing behind.
 */
export function addWithSandbox(deps: SandboxOnAddDeps): ServerAdd {
  return async (input: AddInput) => {
    const { sandbox: choice, ...plain } = input;
    // HTTP servers run nothing locally: the sandbox does not apply to them.
    if (choice === undefined || plain.config.command === undefined) return deps.add(plain);
    if (choice.enabled) await refuseUnavailableSandbox(deps.sandbox);
    const starts = plain.config.enabled !== false;
    const added = await deps.add({ ...plain, config: { ...plain.config, enabled: false } });
    try {
      await deps.sandbox.update(plain.name, { enabled: choice.enabled, allowedFolders: choice.allowedFolders, allowedDomains: choice.allowedDomains, offered: true });
    } catch (error) {
      await deps.remove({ name: plain.name }).catch(() => undefined);
      throw error;
    }
    return starts ? deps.update({ name: plain.name, config: plain.config }) : added;
  };
}

/** Before anything is written: a review may have been shown while the sandbox was there. */
export async function refuseUnavailableSandbox(sandbox: Pick<SandboxService, 'supportNow'>): Promise<void> {
  const support = await sandbox.supportNow(true);
  if (support.available) return;
  const install = support.install === undefined ? '' : ` ${support.install}`;
  throw new HostError('FORBIDDEN', `The sandbox is unavailable here: ${support.reason ?? 'unknown reason'}.${install} Turn the sandbox off to add it unprotected.`, 'sandbox.enabled');
}
