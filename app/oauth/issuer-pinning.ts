import { errorMessage } from '../../shared/error-message';

/** What remembering a pinned authorization server touches. */
export interface IssuerPinningDeps {
  /** ConfigStore.pinServerOAuthIssuer: edits only `oauth.issuer`, and never replaces one the person set. */
  pin(server: string, issuer: string): Promise<void>;
  /** Tells the renderer the config changed (the server form then shows the issuer). */
  announceConfig(): void;
  /** Hands the new config to the supervisor, which takes the pin over without a restart (classifyConfigChange: `live`). */
  applyConfig(): Promise<void>;
  /** A line in the server's log when the pin could not be written. */
  warn(server: string, text: string): void;
}

/**
 * Persists the authorization server a confidential client's first success
 * pinned (IssuerPin), so later starts refuse any other. Pins of one server
 * are written one after another; a failure is said in the server's log (the
 * running provider still holds its pin), never thrown at the OAuth flow.
 */
export function createIssuerPinning(deps: IssuerPinningDeps): (server: string, issuer: string) => Promise<void> {
  let queue: Promise<void> = Promise.resolve();
  return (server, issuer) => {
    const run = queue.then(async () => {
      try {
        await deps.pin(server, issuer);
      } catch (error) {
        deps.warn(
          server,
          `could not remember the authorization server ${issuer} in config.json: ${errorMessage(error)}; enter it in the server's OAuth settings`,
        );
        return;
      }
      deps.announceConfig();
      await deps.applyConfig();
    });
    queue = run.catch(() => undefined);
    return run;
  };
}
