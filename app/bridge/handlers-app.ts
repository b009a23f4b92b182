import type { Handlers } from '../../shared/contract';
import type { appMethods } from '../../shared/contract/app';
import type { AppInfo, ConfigStatus } from '../../shared/domain/config';
import type { EventHub } from '../events/event-hub';
import type { ServerSync } from './server-sync';

/** The app and config-file methods of the contract. */
export type AppHandlers = Pick<Handlers, keyof typeof appMethods>;

export interface AppHandlerDeps {
  appInfo: AppInfo;
  config: { status(): ConfigStatus; saveText(text: string): Promise<ConfigStatus> };
  events: Pick<EventHub, 'emit'>;
  sync: Pick<ServerSync, 'apply'>;
}

/** What Berth is, and config.json as text: a valid save starts, stops and restarts what changed. */
export function createAppHandlers(deps: AppHandlerDeps): AppHandlers {
  const { config, events, sync } = deps;
  return {
    'app.info': async () => deps.appInfo,

    'config.status': async () => config.status(),

    'config.saveText': async ({ text }) => {
      const status = await config.saveText(text);
      if (status.state !== 'invalid') {
        events.emit('config.changed', status);
        await sync.apply();
      }
      return status;
    },
  };
}
