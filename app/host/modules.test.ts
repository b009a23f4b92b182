import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contract, type Handlers, type MethodName } from '../../shared/contract';
import { HandlerRegistry } from '../bridge/handler-registry';
import { createHostContext } from '../host';
import { rootsModule } from './capabilities/roots';
import type { HostContext } from './host-context';
import { openingOrder, openModules, type HostModule } from './host-modules';
import { HOST_MODULES } from './modules';

describe('HOST_MODULES', () => {
  it('reads in the order the host opens: every phase together, in phase order', () => {
    expect(openingOrder(HOST_MODULES).map((module) => module.name)).toEqual(HOST_MODULES.map((module) => module.name));
  });

  it('names each capability once', () => {
    const names = HOST_MODULES.map((module) => module.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('bridge handlers, registered by the modules that bring them', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-modules-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The real modules over a real context in a fresh config dir, with no servers. */
  const contextFor = (): HostContext => createHostContext({ shell: 'browser', configDir: dir, env: { HOME: dir } });

  it('serves every contract method from exactly one module once all have opened', async () => {
    const context = contextFor();
    const opened = await openModules(HOST_MODULES, context);
    try {
      const owners = (Object.keys(contract) as MethodName[]).map((method) => [
        method,
        context.bridgeHandlers.ownerOf(method),
      ]);
      expect(owners.filter(([, owner]) => owner === undefined)).toEqual([]);
      // A sample of who brings what: each domain from its own capability, not from one central list.
      expect(context.bridgeHandlers.ownerOf('chat.send')).toBe('chat');
      expect(context.bridgeHandlers.ownerOf('roots.list')).toBe('roots');
      expect(context.bridgeHandlers.ownerOf('servers.add')).toBe('servers');
      expect(context.bridgeHandlers.ownerOf('bundles.install')).toBe('sources');
      expect(context.bridgeHandlers.ownerOf('sandbox.policy')).toBe('sandbox');
      // And the router serves them.
      const listed = await context.services.get('router').dispatch('roots.list', {});
      expect(listed.ok).toBe(true);
    } finally {
      await opened.shutdown();
    }
  });

  it('does not start when a module forgets to register its handlers, and names the methods', async () => {
    // The roots module opens as usual but registers into a registry nobody reads.
    const forgetful: HostModule<HostContext> = {
      ...rootsModule,
      open: (context, scope) => rootsModule.open({ ...context, bridgeHandlers: new HandlerRegistry() }, scope),
    };
    const modules = HOST_MODULES.map((module) => (module === rootsModule ? forgetful : module));
    await expect(openModules(modules, contextFor())).rejects.toThrow(
      /host module 'bridge' failed to open: no module registers a bridge handler for .*roots\.list/,
    );
  });

  it('does not start when two modules register the same method, and names both', async () => {
    const second: HostModule<HostContext> = {
      name: 'second-chat',
      phase: 'features',
      open: (context, scope) =>
        context.bridgeHandlers.register(scope.module, () => ({ 'chat.list': async () => [] }) as Partial<Handlers>),
    };
    await expect(openModules([...HOST_MODULES, second], contextFor())).rejects.toThrow(
      "host module 'bridge' failed to open: the bridge method 'chat.list' is registered by both 'second-chat' and 'chat'",
    );
  });
});
