import { ok } from '../../shared/result';
import type { FakeHandlers } from './fake-transport';

/**
 * What the app shell asks the host for on start, answered as a quiet host with one model and a stored key:
 * the chat views' tests spread it and add the chat handlers they are about.
 */
export function shellHandlers(): FakeHandlers {
  return {
    'app.info': () =>
      ok({ version: '0', shell: 'browser', platform: 'linux', configPath: '/c', configDir: '/c', logsDir: '/l' }),
    'config.status': () => ok({ path: '/c', state: 'ok', problems: [] }),
    'servers.list': () => ok([]),
    'logs.query': () => ok({ entries: [], dropped: 0 }),
    'settings.get': () =>
      ok({
        apiKey: { source: 'stored', hint: '…wxyz' },
        models: [{ id: 'claude-a', label: 'Claude A' }],
        defaultModel: 'claude-a',
      }),
    'pending.list': () => ok([]),
    'elicitation.awaiting': () => ok([]),
  };
}
