import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SandboxPolicyView, SandboxServerSettingsView } from '../../../shared/contract/sandbox';
import type { SandboxDenial, SandboxSupport } from '../../../shared/domain/sandbox';
import type { Result } from '../../../shared/result';
import type { RendererTransport } from '../../transport/connection';
import { translate } from '../../i18n/use-t';

/** The part of the transport the sandbox UI uses (the store's `appsTransport`). */
export type SandboxTransport = Pick<RendererTransport, 'call' | 'on'> & Partial<Pick<RendererTransport, 'connection'>>;

/** What the host says about the sandbox, as the lazily loaded sandbox UI keeps it. */
export interface SandboxState {
  /** Undefined until the host answered. */
  support: SandboxSupport | undefined;
  /** Per server; a server missing here was never answered for (treat as off, not offered). */
  settings: Record<string, SandboxServerSettingsView>;
  settingsLoaded: boolean;
  /** The latest denials per server, oldest first (the host keeps at most 50). */
  denials: Record<string, SandboxDenial[]>;
  /** The derived policy of servers someone looked at, refreshed when their setting or the roots change. */
  policies: Record<string, SandboxPolicyView>;
}

export type SandboxPatch = Partial<
  Pick<SandboxServerSettingsView, 'enabled' | 'allowedFolders' | 'allowedDomains' | 'offered'>
>;

/** The sandbox's state and the calls that change it; one per transport. */
export interface SandboxModel {
  store: StoreApi<SandboxState>;
  loadPolicy(server: string): Promise<void>;
  loadDenials(server: string): Promise<void>;
  setSettings(server: string, patch: SandboxPatch): Promise<Result<SandboxServerSettingsView>>;
  /** A denial's one fix: the folder or domain it names, for that server (the host restarts it). */
  allow(denial: SandboxDenial): Promise<Result<SandboxServerSettingsView>>;
}

const models = new WeakMap<object, SandboxModel>();

/**
 * The sandbox UI's state lives outside the first screen's store (its budget
 * has no room, and the contract's schemas must not load with it): made on the
 * first use of any sandbox view, for the window's life, bound to the host's
 * sandbox events from then on and reloaded after a reconnect.
 */
export function sandboxModelFor(transport: SandboxTransport): SandboxModel {
  let model = models.get(transport);
  if (model === undefined) {
    model = createSandboxModel(transport);
    models.set(transport, model);
  }
  return model;
}

function createSandboxModel(transport: SandboxTransport): SandboxModel {
  const store = createStore<SandboxState>()(() => ({
    support: undefined,
    settings: {},
    settingsLoaded: false,
    denials: {},
    policies: {},
  }));

  const applySettings = (view: SandboxServerSettingsView) =>
    store.setState((s) => ({ settings: { ...s.settings, [view.server]: view } }));

  const loadPolicy = async (server: string) => {
    const result = await transport.call('sandbox.policy', { server });
    if (result.ok) store.setState((s) => ({ policies: { ...s.policies, [server]: result.value } }));
  };
  const refreshPolicies = () => {
    for (const server of Object.keys(store.getState().policies)) void loadPolicy(server);
  };

  const loadAll = async () => {
    const [support, settings] = await Promise.all([
      transport.call('sandbox.support', {}),
      transport.call('sandbox.serverSettings', {}),
    ]);
    if (support.ok) store.setState({ support: support.value });
    if (settings.ok)
      store.setState({
        settings: Object.fromEntries(settings.value.map((view) => [view.server, view])),
        settingsLoaded: true,
      });
    refreshPolicies();
    for (const server of Object.keys(store.getState().denials)) void loadDenials(server);
  };

  const loadDenials = async (server: string) => {
    const result = await transport.call('sandbox.denials', { server });
    if (result.ok) store.setState((s) => ({ denials: { ...s.denials, [server]: result.value } }));
  };

  transport.on('sandbox.serverSettingsChanged', (view) => {
    applySettings(view);
    if (store.getState().policies[view.server] !== undefined) void loadPolicy(view.server);
  });
  transport.on('sandbox.denied', (denial) =>
    store.setState((s) => {
      const list = [...(s.denials[denial.server] ?? []), denial].slice(-50);
      return { denials: { ...s.denials, [denial.server]: list } };
    }),
  );
  // Which folders a server may write follows its roots.
  transport.on('roots.changed', () => refreshPolicies());
  let wasOpen = transport.connection?.get().state === 'open';
  transport.connection?.subscribe((status) => {
    const open = status.state === 'open';
    // Events sent while the window was away are lost: ask again.
    if (open && !wasOpen) void loadAll();
    wasOpen = open;
  });
  void loadAll();

  return {
    store,
    loadPolicy,
    loadDenials,
    async setSettings(server, patch) {
      const result = await transport.call('sandbox.setServerSettings', { server, ...patch });
      if (result.ok) {
        applySettings(result.value);
        void loadPolicy(server);
      }
      return result;
    },
    async allow(denial) {
      const fix = denial.fix;
      if (fix === undefined) return { ok: false, code: 'FORBIDDEN', message: translate('sandbox.words.neverSecrets') };
      const result = await transport.call(
        'sandbox.allow',
        'folder' in fix ? { server: denial.server, folder: fix.folder } : { server: denial.server, domain: fix.domain },
      );
      if (result.ok) {
        applySettings(result.value);
        // Answered: the denial is no longer something to act on.
        store.setState((s) => ({
          denials: {
            ...s.denials,
            [denial.server]: (s.denials[denial.server] ?? []).filter((d) => !sameFix(d, denial)),
          },
        }));
        void loadPolicy(denial.server);
      }
      return result;
    },
  };
}

function sameFix(a: SandboxDenial, b: SandboxDenial): boolean {
  return JSON.stringify(a.fix) === JSON.stringify(b.fix) && a.fix !== undefined;
}
