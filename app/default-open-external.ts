import type { HostOptions } from './host/host-types';

/** How the host opens a link when its shell gave no way: browser mode leaves it to the page; any other shell cannot. */
export function defaultOpenExternal(shell: HostOptions['shell']): (url: string) => Promise<void> {
  // Browser mode: the renderer opens the link in the person's own browser once they agree.
  if (shell === 'browser') return async () => undefined;
  return async (url) => {
    throw new Error(`this Berth window cannot open links (${new URL(url).hostname})`);
  };
}
