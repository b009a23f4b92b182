import type { Handlers } from '../../shared/contract';
import type { configImportMethods } from '../../shared/contract/config-import';
import type { ConfigImportService } from '../config-import/import-service';
import type { ServerSync } from './server-sync';

/** The config import/export methods of the contract. */
export type ConfigImportHandlers = Pick<Handlers, keyof typeof configImportMethods>;

export interface ConfigImportHandlerDeps {
  service: ConfigImportService;
  /** Tells the renderer the config changed, as the server form's writes do. */
  announceConfig(): void;
  /** Starts the imported servers like any other added server. */
  sync: Pick<ServerSync, 'apply'>;
}

/** Import from Claude Desktop, Cursor, .mcp.json and VS Code; export to Claude Desktop. */
export function createConfigImportHandlers(deps: ConfigImportHandlerDeps): ConfigImportHandlers {
  const { service } = deps;
  return {
    'configImport.locations': async ({ projectFolder }) => ({ locations: await service.locations(projectFolder) }),
    'configImport.preview': async ({ source }) => service.preview(source),
    'configImport.apply': async ({ source, servers, answers, workspaceFolder }) => {
      const outcome = await service.apply({ source, servers, answers, workspaceFolder });
      if (outcome.imported) {
        deps.announceConfig();
        await deps.sync.apply();
      }
      return outcome;
    },
    'configImport.export': async () => service.export(),
  };
}
