import type { Conversation } from '../../shared/domain/chat';
import type { ConsentBroker } from '../consent/consent-broker';
import type { EventHub } from '../events/event-hub';
import type { LogSink } from '../logs/log-sink';
import type { ServerLifecycle } from '../servers/server-lifecycle';
import { AppsService } from './apps-service';
import type { AppsServers } from './apps-service';
import { appsExtensionDeclaration } from './ui-capability';

export interface CreateAppsOptions {
  lifecycle: Pick<ServerLifecycle, 'register'>;
  servers: AppsServers;
  consent: Pick<ConsentBroker, 'approveToolCall'>;
  logs: LogSink;
  events: Pick<EventHub, 'emit'>;
  openExternal(url: string): Promise<void>;
  sandboxProxyUrl?: (() => string | undefined) | undefined;
  /** Read lazily: the conversation store opens after the apps are wired. */
  conversation(id: string): Promise<Conversation>;
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
