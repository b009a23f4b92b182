import { personSignsIn, type ServerAuth, type ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { KeyIcon } from '../../ui/icons';

/** A remote server a person signs in to with OAuth: a URL, no Authorization header of the person's own, and not set to a grant with no person (client credentials, workload identity). */
export function usesOAuth(server: ServerState): boolean {
  return personSignsIn(server.config);
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
    pushToast({
      tone: 'info',
      title: `Signing in to “${server.name}”`,
      message: 'Finish in the browser; the server starts when you are done.',
    });
  };

  return (
    <Button size="sm" icon={<KeyIcon />} onClick={() => void signIn()}>
      Sign in
    </Button>
  );
}

/** What is known about the token, in words; undefined when nothing is. */
export function signedInDetail(auth: ServerAuth, now: number): string | undefined {
  if (auth.renews === true) return 'renews automatically';
  if (auth.expiresAt === undefined) return undefined;
  if (auth.expiresAt <= now) return 'token expired';
  const until = new Date(auth.expiresAt);
  const sameDay = until.toDateString() === new Date(now).toDateString();
  return `until ${sameDay ? until.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : until.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}`;
}

/**
 * A small "Signed in" mark for a server Berth holds OAuth tokens for (Sign
 * out is in the server's menu and its Overview). A token that renews itself
 * needs no attention, so its detail stays in the tooltip (and the Overview);
 * one that will lapse says when, except in the compact server list.
 */
export function SignedInChip({ auth, compact }: { auth: ServerAuth; compact?: boolean }) {
  const detail = signedInDetail(auth, Date.now());
  const quiet = compact === true || detail === undefined || auth.renews === true;
  return (
    <Chip tone="success" {...(detail === undefined ? {} : { title: `Signed in: ${detail}` })}>
      {quiet ? 'Signed in' : `Signed in · ${detail}`}
    </Chip>
  );
}

/** The Overview's sign-in fact: the state in words, what it means, and Sign out once signed in. */
export function SignInFact({ server, auth }: { server: ServerState; auth: ServerAuth }) {
  const signOutServer = useBerth((s) => s.signOutServer);
  if (auth.state === 'needs-sign-in') {
    return (
      <>
        <span>Needs sign-in</span>
        <p className="fact-note">
          The server wants you to sign in with OAuth: press Sign in, and finish in the browser.
        </p>
      </>
    );
  }
  const detail = auth.renews === true ? 'the token renews automatically' : signedInDetail(auth, Date.now());
  return (
    <>
      <span className="fact-row">
        <span>Signed in with OAuth{detail === undefined ? '' : ` · ${detail}`}</span>
        <Button size="sm" onClick={() => void signOutServer(server.name)}>
          Sign out
        </Button>
      </span>
      <p className="fact-note">Berth keeps the tokens in its secret store; they never reach this window.</p>
    </>
  );
}

/** The sign-in part of a server's header or card: Sign in while it needs one, "Signed in" once it is. */
export function SignInState({ server, compact }: { server: ServerState; compact?: boolean }) {
  if (server.auth?.state === 'signed-in')
    return <SignedInChip auth={server.auth} {...(compact === true ? { compact } : {})} />;
  if (compact === true) return server.auth?.state === 'needs-sign-in' ? <SignInButton server={server} /> : null;
  return usesOAuth(server) ? <SignInButton server={server} /> : null;
}
