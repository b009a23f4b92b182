import type { Handlers } from '../../shared/contract';
import type { configImportMethods } from '../../shared/contract/config-import';
import type { ConfigImportService } from '../config-import/import-service';
import type { SandboxService } from '../sandbox/sandbox-service';
import { HostError } from '../../shared/result';
import { configError } from '../../shared/domain/config-errors';
import type { ServerSync } from './server-sync';

/** The config import/export methods of the contract. */
export type ConfigImportHandlers = Pick<Handlers, keyof typeof configImportMethods>;

export interface ConfigImportHandlerDeps {
  service: ConfigImportService;
  /** Tells the renderer the config changed, as the server form's writes do. */
  announceConfig(): void;
  /** Starts the imported servers like any other added server. */
  sync: Pick<ServerSync, 'apply'>;
  /** Imported local servers run sandboxed when the review left it on. */
  sandbox: Pick<SandboxService, 'supportNow' | 'update'>;
  /** Whether a configured server runs a local command (the sandbox applies to those only). */
  isLocal(name: string): boolean;
}

/** Import from Claude Desktop, Cursor, .mcp.json and VS Code; export to Claude Desktop. */
export function createConfigImportHandlers(deps: ConfigImportHandlerDeps): ConfigImportHandlers {
  const { service } = deps;
  return {
    'configImport.locations': async ({ projectFolder }) => ({ locations: await service.locations(projectFolder) }),
    'configImport.preview': async ({ source }) => service.preview(source),
    'configImport.apply': async ({ source, servers, answers, workspaceFolder, sandbox }) => {
      if (sandbox === true) await refuseUnavailableSandbox(deps.sandbox);
      const outcome = await service.apply({ source, servers, answers, workspaceFolder });
      if (outcome.imported) {
        deps.announceConfig();
        await deps.sync.apply();
        // Imported servers are added turned off, so the setting is in place before anyone starts them.
        for (const name of outcome.added) {
          if (deps.isLocal(name))
            await deps.sandbox.update(name, sandbox === true ? { enabled: true, offered: true } : { offered: true });
        }
      }
      return outcome;
    },
    'configImport.export': async () => service.export(),
  };
}

/** Before anything is written: the review may have been shown while the sandbox was there. */
async function refuseUnavailableSandbox(sandbox: Pick<SandboxService, 'supportNow'>): Promise<void> {
  const support = await sandbox.supportNow(true);
  if (support.available) return;
  const reason = support.reason ?? 'unknown reason';
  throw HostError.coded(
    'FORBIDDEN',
    support.install === undefined
      ? configError('config-errors.import-no-sandbox', { reason })
      : configError('config-errors.import-no-sandbox-install', { reason, install: support.install }),
    'sandbox',
  );
}
