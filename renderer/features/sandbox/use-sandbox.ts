import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useBerth } from '../../store';
import { sandboxModelFor, type SandboxModel, type SandboxState } from './sandbox-store';

/** The sandbox model of this window's transport (made on first use). */
export function useSandboxModel(): SandboxModel {
  const transport = useBerth((s) => s.appsTransport);
  return sandboxModelFor(transport);
}

/** One value of the sandbox state; re-renders when it changes. */
export function useSandbox<T>(selector: (state: SandboxState) => T): T {
  return useStore(useSandboxModel().store, selector);
}

/** Keeps a server's derived policy loaded while a view shows it. */
export function useSandboxPolicy(server: string | undefined) {
  const model = useSandboxModel();
  const view = useSandbox((s) => (server === undefined ? undefined : s.policies[server]));
  useEffect(() => {
    if (server !== undefined) void model.loadPolicy(server);
  }, [model, server]);
  return view;
}

/** A server's recent denials, loaded once a view shows them and kept current by the `sandbox.denied` event. */
export function useSandboxDenials(server: string) {
  const model = useSandboxModel();
  const denials = useSandbox((s) => s.denials[server]);
  const loaded = denials !== undefined;
  useEffect(() => {
    if (!loaded) void model.loadDenials(server);
  }, [model, server, loaded]);
  return denials ?? NONE;
}

const NONE: never[] = [];
