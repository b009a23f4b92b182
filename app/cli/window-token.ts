import { INJECTED_TOKEN_GLOBAL } from '../../shared/contract';
import type { DevToolsEvent, DevToolsPipe } from './devtools-pipe';

/**
 * How the window Berth opens gets the bridge token without it ever being in
 * the browser's command line (readable by every local user in
 * /proc/PID/cmdline) or in a URL (kept in the profile's History, Top Sites and
 * Sessions): over the private DevTools pipe, Berth registers a script that
 * runs before every document of the window, reloads included, and defines the
 * token for Berth's own origin only; then it navigates the window to Berth.
 */

/** Past this the browser is not going to answer; the person is told to use the printed address. */
export const HANDOFF_TIMEOUT_MS = 20_000;

export interface TokenHandoffOptions {
  /** Berth's page, without the token: `http://127.0.0.1:PORT/`. */
  pageUrl: string;
  token: string;
  timeoutMs?: number;
}

/**
 * The script run before each document of the window: the token is defined
 * only when the document is Berth's own page, so a page of another origin
 * the window might show never sees it.
 */
export function injectedTokenScript(pageUrl: string, token: string): string {
  const origin = new URL(pageUrl).origin;
  return (
    `if (location.origin === ${JSON.stringify(origin)}) ` +
    `Object.defineProperty(window, ${JSON.stringify(INJECTED_TOKEN_GLOBAL)}, { value: ${JSON.stringify(token)}, configurable: true });`
  );
}

/** Gives the browser's first page (the `--app` window) the token script, then opens Berth in it. */
export async function handTokenToWindow(pipe: DevToolsPipe, options: TokenHandoffOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? HANDOFF_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the browser did not answer within ${Math.round(timeoutMs / 1000)} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([handOver(pipe, options), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function handOver(pipe: DevToolsPipe, options: TokenHandoffOptions): Promise<void> {
  const targetId = await firstPageTarget(pipe);
  const attached = await pipe.call('Target.attachToTarget', { targetId, flatten: true });
  const sessionId = attached.sessionId;
  if (typeof sessionId !== 'string') throw new Error('the browser attached to the window without a session id');
  // Scripts registered with a disabled Page domain are not run on new documents.
  await pipe.call('Page.enable', {}, sessionId);
  await pipe.call(
    'Page.addScriptToEvaluateOnNewDocument',
    { source: injectedTokenScript(options.pageUrl, options.token) },
    sessionId,
  );
  const navigated = await pipe.call('Page.navigate', { url: options.pageUrl }, sessionId);
  if (typeof navigated.errorText === 'string')
    throw new Error(`the window could not load ${options.pageUrl} (${navigated.errorText})`);
}

/** The id of the first page target, existing or yet to be created. */
async function firstPageTarget(pipe: DevToolsPipe): Promise<string> {
  let stopListening: () => void = () => undefined;
  const created = new Promise<string>((resolve) => {
    stopListening = pipe.onEvent((event: DevToolsEvent) => {
      if (event.method !== 'Target.targetCreated') return;
      const info = event.params.targetInfo as { type?: unknown; targetId?: unknown } | undefined;
      if (info?.type === 'page' && typeof info.targetId === 'string') resolve(info.targetId);
    });
  });
  try {
    // Discovery reports every existing target as created, then each new one.
    await pipe.call('Target.setDiscoverTargets', { discover: true });
    return await created;
  } finally {
    stopListening();
  }
}
