import { personSignsIn, type ServerAuth, type ServerState } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { KeyIcon } from '../../ui/icons';
import { formatDateTime } from '../../i18n/format';
import { translate, useT, type Translate } from '../../i18n/use-t';
import { words } from '../../i18n/words';

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
  const t = useT();
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
      title: words('servers.signIn.toastTitle', { server: server.name }),
      message: words('servers.signIn.toastMessage'),
    });
  };

  return (
    <Button size="sm" icon={<KeyIcon />} onClick={() => void signIn()}>
      {t('servers.signIn.button')}
    </Button>
  );
}

/** What is known about the token, in words; undefined when nothing is. `t` from the caller's useT() follows a language switch. */
export function signedInDetail(auth: ServerAuth, now: number, t: Translate = translate): string | undefined {
  if (auth.renews === true) return t('servers.signIn.renews');
  if (auth.expiresAt === undefined) return undefined;
  if (auth.expiresAt <= now) return t('servers.signIn.expired');
  const until = new Date(auth.expiresAt);
  const sameDay = until.toDateString() === new Date(now).toDateString();
  const when = formatDateTime(
    until,
    sameDay
      ? { hour: '2-digit', minute: '2-digit' }
      : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' },
  );
  return t('servers.signIn.until', { when });
}

/**
 * A small "Signed in" mark for a server Berth holds OAuth tokens for (Sign
 * out is in the server's menu and its Overview). A token that renews itself
 * needs no attention, so its detail stays in the tooltip (and the Overview);
 * one that will lapse says when, except in the compact server list.
 */
export function SignedInChip({ auth, compact }: { auth: ServerAuth; compact?: boolean }) {
  const t = useT();
  const detail = signedInDetail(auth, Date.now(), t);
  const quiet = compact === true || detail === undefined || auth.renews === true;
  return (
    <Chip tone="success" {...(detail === undefined ? {} : { title: t('servers.signIn.chipTitle', { detail }) })}>
      {quiet ? t('servers.signIn.signedIn') : t('servers.signIn.signedInDetail', { detail })}
    </Chip>
  );
}

/** The Overview's sign-in fact: the state in words, what it means, and Sign out once signed in. */
export function SignInFact({ server, auth }: { server: ServerState; auth: ServerAuth }) {
  const t = useT();
  const signOutServer = useBerth((s) => s.signOutServer);
  if (auth.state === 'needs-sign-in') {
    return (
      <>
        <span>{t('servers.signIn.needs')}</span>
        <p className="fact-note">{t('servers.signIn.needsNote')}</p>
      </>
    );
  }
  const detail = auth.renews === true ? t('servers.signIn.renewsLong') : signedInDetail(auth, Date.now(), t);
  return (
    <>
      <span className="fact-row">
        <span>
          {detail === undefined ? t('servers.signIn.withOAuth') : t('servers.signIn.withOAuthDetail', { detail })}
        </span>
        <Button size="sm" onClick={() => void signOutServer(server.name)}>
          {t('servers.signIn.signOut')}
        </Button>
      </span>
      <p className="fact-note">{t('servers.signIn.tokensNote')}</p>
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
