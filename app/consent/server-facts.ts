import type { ServerState } from '../../shared/domain/server';
import type { ServerLifecycleListener } from '../servers/server-lifecycle';
import { serverIdentity } from './approval-fingerprint';
import type { ServerNow } from './consent-rule-approval';

/** Each server's latest state, so listed permissions can say whether they still apply (ConsentBroker's `serverNow`). */
export class ServerFacts implements ServerLifecycleListener {
  private readonly states = new Map<string, ServerState>();

  serverChanged(state: ServerState): void {
    this.states.set(state.name, state);
  }

  serverRemoved(name: string): void {
    this.states.delete(name);
  }

  /** The server's identity now, and its tools while it is ready; undefined for a server Berth has not seen. */
  now(server: string): ServerNow | undefined {
    const state = this.states.get(server);
    if (state === undefined) return undefined;
    return { identity: serverIdentity(state.config), ...(state.status === 'ready' ? { tools: state.tools } : {}) };
  }
}
