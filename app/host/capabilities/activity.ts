import { isTerminalTaskStatus } from '../../../shared/domain/task-status';
import type { TopicName } from '../../../shared/contract';
import { ActivityWatch } from '../activity';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The topics after which what runs may have changed. */
const MAY_CHANGE: ReadonlySet<TopicName> = new Set<TopicName>([
  'chat.event',
  'tasks.changed',
  'events.changed',
  'servers.changed',
  'pending.changed',
]);

/** What runs in the host (the tray's words, and whether Berth may stop with no window): `app.activity`. */
export const activityModule: HostModule<HostContext> = {
  name: 'activity',
  phase: 'ready',
  open(context, scope) {
    const { services, events } = context;
    const watch = new ActivityWatch(
      {
        replies: () => services.find('chat')?.runningTurns() ?? 0,
        tasks: () =>
          services
            .get('tasks')
            .list()
            .filter((task) => !isTerminalTaskStatus(task.status)).length,
        subscriptions: () => services.find('mcpEvents')?.delivering() ?? 0,
        waiting: () => services.get('pending').counts().total,
      },
      (activity) => events.emit('app.activity', activity),
    );
    const unsubscribe = events.subscribe((topic) => {
      if (MAY_CHANGE.has(topic)) watch.touch();
    });
    scope.onShutdown(unsubscribe);
    context.bridgeHandlers.register(scope.module, () => ({ 'app.activity': async () => watch.current() }));
  },
};
