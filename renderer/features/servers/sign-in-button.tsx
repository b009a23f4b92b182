import type { ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button } from '../shell/controls';
import { KeyIcon } from '../shell/icons';

/** A remote server Berth signs in to with OAuth: a URL, and no Authorization header of the person's own. */
export function usesOAuth(server: ServerState): boolean {
  return server.config.url !== undefined && !Object.keys(server.config.headers).some((name) => name.toLowerCase() === 'authorization');
}

/**
 * "Sign in": the host finds the authorization server and returns the page
 * to open. The desktop app opens the system browser itself; in browser mode
 * this page opens a tab, which must happen inside the click to get past
 * pop-up blocking, so a blank tab is opened first and pointed at the page
 * once the host answers.
 */
export function SignInButton({ server }: { server: ServerState }) {
  const signInServer = useBerth((s) => s.signInServer);
  const pushToast = useBerth((s) => s.pushToast);
  const shell = useBerth((s) => s.appInfo?.shell);

  const signIn = async () => {
    const tab = shell === 'browser' ? window.open('about:blank', '_blank') : null;
    const result = await signInServer(server.name);
    if (!result.ok) {
      tab?.close();
      return;
    }
    if (!result.value.opened) {
      if (tab !== null) {
        // The authorization server must not be able to reach back into Berth's page.
        tab.opener = null;
        tab.location.href = result.value.authorizationUrl;
      } else {
        window.open(result.value.authorizationUrl, '_blank', 'noopener,noreferrer');
      }
    }
    pushToast({ tone: 'info', title: `Signing in to “${server.name}”`, message: 'Finish in the browser; the server starts when you are done.' });
  };

  return (
    <Button size="sm" icon={<KeyIcon />} onClick={() => void signIn()}>
      Sign in
    </Button>
  );
}
