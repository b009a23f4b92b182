import { describe, expect, it } from 'vitest';
import { contract, type Handlers, type MethodName } from '../../shared/contract';
import { HandlerRegistry } from './handler-registry';

const METHODS = Object.keys(contract) as MethodName[];

/** Handlers for `methods` that answer with their own method's name. */
function answering(methods: readonly MethodName[]): Partial<Handlers> {
  return Object.fromEntries(methods.map((method) => [method, async () => method])) as Partial<Handlers>;
}

/** Every contract method: `chat.*` from 'chat', the rest from 'rest'. */
function registeredByTwo(): HandlerRegistry {
  const registry = new HandlerRegistry();
  registry.register('chat', () => answering(METHODS.filter((method) => method.startsWith('chat.'))));
  registry.register('rest', () => answering(METHODS.filter((method) => !method.startsWith('chat.'))));
  return registry;
}

describe('HandlerRegistry', () => {
  it('serves every method from the module that registered it', async () => {
    const registry = registeredByTwo();
    const handlers = registry.build();
    expect(registry.ownerOf('chat.list')).toBe('chat');
    expect(registry.ownerOf('roots.list')).toBe('rest');
    expect(await (handlers['roots.list'] as () => Promise<unknown>)()).toBe('roots.list');
    expect(Object.keys(handlers).sort()).toEqual([...METHODS].sort());
  });

  it('refuses to start when two modules register the same method, naming both', () => {
    const registry = registeredByTwo();
    registry.register('skills', () => answering(['chat.list']));
    expect(() => registry.build()).toThrow(
      "the bridge method 'chat.list' is registered by both 'chat' and 'skills': one module must serve it",
    );
  });

  it('refuses to start when no module registers a contract method, naming it', () => {
    const registry = new HandlerRegistry();
    registry.register('rest', () => answering(METHODS.filter((method) => method !== 'roots.list')));
    expect(() => registry.build()).toThrow(/no module registers a bridge handler for roots\.list:/);
  });

  it('refuses a method the contract does not have', () => {
    const registry = registeredByTwo();
    registry.register('typo', () => ({ 'roots.lsit': async () => [] }) as Partial<Handlers>);
    expect(() => registry.build()).toThrow("module 'typo' registers 'roots.lsit', which the contract does not have");
  });

  it("lets a handler call another module's method through the built table", async () => {
    const registry = new HandlerRegistry();
    registry.register('rest', () => answering(METHODS.filter((method) => method !== 'bundles.uninstall')));
    registry.register('bundles', (served) => ({
      'bundles.uninstall': async () => (served['servers.list'] as () => Promise<unknown>)() as never,
    }));
    const handlers = registry.build();
    expect(await (handlers['bundles.uninstall'] as () => Promise<unknown>)()).toBe('servers.list');
  });

  it('takes no registration once built: a late one would never be served', () => {
    const registry = registeredByTwo();
    registry.build();
    expect(() => registry.register('late', () => ({}))).toThrow(
      "module 'late' registered bridge handlers after the bridge opened",
    );
  });
});
