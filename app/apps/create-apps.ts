import type { ServerLifecycle } from '../servers/server-lifecycle';
import { AppsService } from './apps-service';
import type { AppsServiceOptions } from './apps-service';
import { appsExtensionDeclaration } from './ui-capability';

/** What the apps service takes, plus the lifecycle it joins (the clock stays the service's default). */
export interface CreateAppsOptions extends Omit<AppsServiceOptions, 'now'> {
  lifecycle: Pick<ServerLifecycle, 'register'>;
}

/**
 * MCP Apps for one host (host.ts calls this once): every client declares the
 * UI extension, and the AppsService hears the servers' lifecycle (its UI
 * resource cache follows restarts, list changes and removals).
 */
export function createApps(options: CreateAppsOptions): AppsService {
  const { lifecycle, ...serviceOptions } = options;
  lifecycle.register(appsExtensionDeclaration);
  const apps = new AppsService(serviceOptions);
  lifecycle.register(apps);
  return apps;
}
