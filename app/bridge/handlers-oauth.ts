import type { Handlers } from '../../shared/contract';
import type { oauthMethods } from '../../shared/contract/oauth';
import type { ServerConfig, ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { ServerStartError } from '../../shared/domain/server-start-error';
import type { OAuthSessions } from '../oauth/oauth-sessions';
import { errorMessage } from '../../shared/error-message';

/** The OAuth methods of the contract. */
export type OAuthHandlers = Pick<Handlers, keyof typeof oauthMethods>;

/** What the OAuth handlers need from the host. */
export interface OAuthHandlerDeps {
  sessions: Pick<OAuthSessions, 'startSignIn' | 'signOut'>;
  rawServer(name: string): ServerConfig | undefined;
  /** The config with its `${secret:…}` references filled in (a pre-registered client's secret). */
  resolveSecrets(name: string, config: ServerConfig): Promise<ServerConfig>;
  supervisor: {
    get(name: string): ServerState | undefined;
    restart(name: string): Promise<ServerState>;
    signInChanged(name: string): Promise<ServerState>;
  };
}

export function createOAuthHandlers(deps: OAuthHandlerDeps): OAuthHandlers {
  const requireConfig = (name: string): ServerConfig => {
    const config = deps.rawServer(name);
    if (config === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-supervised', { name }), 'name');
    return config;
  };
  return {
    'servers.signIn': async ({ name }) => {
      const stored = requireConfig(name);
      let config: ServerConfig;
      try {
        config = await deps.resolveSecrets(name, stored);
      } catch (error) {
        // A pre-registered client's secret missing from the store: the message names it and the fix, its code kept.
        throw new HostError(
          'NOT_READY',
          errorMessage(error),
          undefined,
          error instanceof ServerStartError
            ? error.wording
            : error instanceof HostError
              ? error.hostMessage
              : undefined,
        );
      }
      return deps.sessions.startSignIn(name, config);
    },
    'servers.signOut': async ({ name }) => {
      await deps.sessions.signOut(name, requireConfig(name));
      if (deps.supervisor.get(name) === undefined)
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-supervised', { name }), 'name');
      const state = await deps.supervisor.signInChanged(name);
      // A live connection still holds the old token in its requests: restart it so signing out takes effect now.
      return state.status === 'ready' ? deps.supervisor.restart(name) : state;
    },
  };
}
