import type { SandboxPolicyView, SandboxServerSettingsView } from '../../shared/contract/sandbox';
import type { SandboxDenial, SandboxSupport } from '../../shared/domain/sandbox';
import { ok } from '../../shared/result';
import type { FakeHandlers } from './fake-transport';

export const HOME = '/home/ann';
export const AVAILABLE: SandboxSupport = { available: true, platform: 'linux', warnings: [] };
export const MISSING: SandboxSupport = {
  available: false,
  platform: 'linux',
  reason: 'bubblewrap (bwrap) is not installed',
  install: 'Install it with: sudo apt-get install bubblewrap socat ripgrep',
  warnings: [],
};

export function settingsView(
  server: string,
  patch: Partial<SandboxServerSettingsView> = {},
): SandboxServerSettingsView {
  return { server, applies: true, enabled: false, allowedFolders: [], allowedDomains: [], offered: false, ...patch };
}

/** A derived policy as the host would send it for a server with one root. */
export function policyView(settings: SandboxServerSettingsView, root = `${HOME}/Projects/site`): SandboxPolicyView {
  const own = [
    `${HOME}/.config/berth/sandbox/${settings.server}/data`,
    `${HOME}/.config/berth/sandbox/${settings.server}/tmp`,
    `${HOME}/.config/berth/sandbox/${settings.server}/cache`,
  ];
  const tilde = (path: string) => (path.startsWith(`${HOME}/`) ? `~${path.slice(HOME.length)}` : path);
  const writeFolders = [root, ...settings.allowedFolders];
  return {
    server: settings.server,
    settings,
    policy: {
      allowWrite: [...writeFolders, ...own],
      denyWrite: [`${HOME}/.bashrc`],
      denyRead: [`${HOME}/.ssh`, `${HOME}/.aws`],
      allowRead: [],
      allowedDomains: settings.allowedDomains,
    },
    words: {
      write: '',
      read: "Can read the system and its own program, but not: SSH and GPG keys, cloud and package-manager credentials, browser profiles, Berth's settings and secrets",
      network:
        settings.allowedDomains.length === 0 ? 'No network' : `Network only to: ${settings.allowedDomains.join(', ')}`,
      writeFolders: writeFolders.map(tilde),
    },
  };
}

export function denial(server: string, patch: Partial<SandboxDenial> = {}): SandboxDenial {
  return {
    server,
    kind: 'write',
    target: `${HOME}/Documents/x/report.txt`,
    source: 'server',
    message: 'the server reports the sandbox blocked a write to ~/Documents/x/report.txt',
    at: 1_700_000_000_000,
    fix: { folder: `${HOME}/Documents/x` },
    ...patch,
  };
}

/**
 * A fake host that keeps sandbox settings like the real one: the answers to
 * `sandbox.*` come from `settings`, and setting or allowing updates them.
 */
export function sandboxHandlers(
  initial: SandboxServerSettingsView[],
  support: SandboxSupport = AVAILABLE,
  denials: SandboxDenial[] = [],
): FakeHandlers & { settings: Map<string, SandboxServerSettingsView> } {
  const settings = new Map(initial.map((view) => [view.server, view]));
  const get = (server: string) => settings.get(server) ?? settingsView(server);
  return {
    settings,
    'sandbox.support': () => ok(support),
    'sandbox.serverSettings': () => ok([...settings.values()]),
    'sandbox.policy': ({ server }) => ok(policyView(get(server))),
    'sandbox.denials': ({ server }) => ok(denials.filter((d) => d.server === server)),
    'sandbox.setServerSettings': ({ server, ...patch }) => {
      const next = { ...get(server), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      settings.set(server, next);
      return ok(next);
    },
    'sandbox.allow': (input) => {
      const current = get(input.server);
      const next =
        input.folder !== undefined
          ? { ...current, allowedFolders: [...current.allowedFolders, input.folder] }
          : { ...current, allowedDomains: [...current.allowedDomains, input.domain ?? ''] };
      settings.set(input.server, next);
      return ok(next);
    },
  };
}
