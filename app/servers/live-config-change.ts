import type { ServerConfig, ServerState } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { enqueue, type Entry } from './supervisor-entry';

/** What adopting a live change does to the entry's state and log (the supervisor's own). */
export interface LiveChangeEffects {
  update(entry: Entry, patch: Partial<ServerState>): void;
  hostLog(entry: Entry, level: 'warning', text: string): void;
}

/**
 * The config's level changed and nothing else did (an edit of the file or
 * the form): applied live instead of restarting. Nobody waits for this, so
 * a server that refuses the level gets a warning in its log.
 */
export function adoptLiveChange(entry: Entry, config: ServerConfig, effects: LiveChangeEffects): Promise<void> {
  return enqueue(entry, async () => {
    if (entry.removed) return;
    const level = config.logLevel;
    const connection = entry.state.status === 'ready' && level !== entry.config.logLevel ? entry.connection : undefined;
    entry.config = config;
    effects.update(entry, { config, logLevel: level });
    if (connection === undefined) return;
    if (level === undefined) {
      connection.forgetLogLevel();
      return;
    }
    try {
      await connection.setLogLevel(level);
    } catch (error) {
      effects.hostLog(entry, 'warning', `could not apply log level ${level} from the config: ${errorMessage(error)}`);
    }
  });
}
