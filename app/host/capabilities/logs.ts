import { createLogHandlers } from '../../bridge/handlers-logs';
import { tightenBerthFiles } from '../../config/private-files';
import { Redaction } from '../redaction';
import { LogHub } from '../../logs/log-hub';
import type { HostContext } from '../host-context';
import type { HostModule } from '../host-modules';

/** The host-wide log (redacted, with files), and Berth's files made private before anything reads or writes them. */
export const logsModule: HostModule<HostContext> = {
  name: 'logs',
  phase: 'foundation',
  async open(context, scope) {
    const { services, paths, events } = context;
    // The SDK's own lines go to the log made next: the log redacts with this, this reports through the log.
    const redaction = services.provide(
      'redaction',
      new Redaction({
        env: context.hostEnv,
        sdkLine: (level, text) => logs.append({ server: '', time: Date.now(), source: 'host', level, text }),
      }),
    );
    scope.onShutdown(() => redaction.close());
    const logs = services.provide(
      'logs',
      new LogHub({
        onBatch: (entries) => {
          events.emit('logs.appended', { entries });
          for (const watch of context.logWatchers) watch(entries);
        },
        // A window gets the trace live only while its Logs view is open (logs.followTrace).
        liveTrace: 'when-followed',
        files: { dir: paths.logsDir },
        redact: (text) => redaction.redact(text),
      }),
    );
    // Flushes pending batches and file writes, then ignores late appends.
    scope.onShutdown(() => logs.dispose());
    context.lifecycle.register({ serverRemoved: (name) => logs.removeServer(name) });
    context.bridgeHandlers.register(scope.module, () => createLogHandlers(logs, events));

    // Before anything is read or written: what an older Berth left readable by others becomes private.
    // The walk lstats every conversation file; the conversations index checks each one's identity with that (the chat module).
    const privacy = services.provide(
      'privateFiles',
      await tightenBerthFiles(paths.configDir, { keepIdentitiesIn: paths.conversationsDir }),
    );
    if (privacy.tightened.length > 0) {
      logs.append({
        server: '',
        time: Date.now(),
        source: 'host',
        level: 'info',
        text: `made ${privacy.tightened.length} of Berth's files and folders private to you (no access for group or others)`,
      });
    }
    for (const failure of privacy.failures)
      context.warn(`could not make this private to you (others may read it): ${failure}`);
  },
};
