import { contract, isMethodName, type Handlers, type MethodName } from '../../shared/contract';

/**
 * Makes the handlers a module brings. Called once, when the bridge opens (the
 * last phase), so a handler may use a service of any module. `served` is the
 * whole table: a handler that works through another method (a bundle install
 * adds a server) calls it there, at call time, as the renderer's call would.
 */
export type HandlerFactory = (served: Handlers) => Partial<Handlers>;

/**
 * The contract's methods, each served by the module that brings it: modules
 * register while they open, the bridge module builds the table once every
 * module has. A method two modules serve, or one nobody serves, stops the
 * start-up with the modules and methods named.
 */
export class HandlerRegistry {
  private readonly factories: { module: string; create: HandlerFactory }[] = [];
  private readonly owners = new Map<MethodName, string>();
  private built = false;

  /** Adds the handlers `module` brings (made when the bridge opens). */
  register(module: string, create: HandlerFactory): void {
    if (this.built) throw new Error(`module '${module}' registered bridge handlers after the bridge opened`);
    this.factories.push({ module, create });
  }

  /** Which module serves each method (once built). */
  ownerOf(method: MethodName): string | undefined {
    return this.owners.get(method);
  }

  /** Every method's handler, each from the one module that registered it; throws naming a method served twice or not at all. */
  build(): Handlers {
    if (this.built) throw new Error('the bridge handlers are built once');
    this.built = true;
    const table: Partial<Record<MethodName, unknown>> = {};
    // Filled below before any call can arrive: the router is made from it after this returns.
    const served = table as Handlers;
    for (const { module, create } of this.factories) {
      for (const [method, handler] of Object.entries(create(served)) as [MethodName, unknown][]) {
        if (handler === undefined) continue;
        if (!isMethodName(method))
          throw new Error(`module '${module}' registers '${method}', which the contract does not have`);
        const owner = this.owners.get(method);
        if (owner !== undefined) {
          throw new Error(
            `the bridge method '${method}' is registered by both '${owner}' and '${module}': one module must serve it`,
          );
        }
        this.owners.set(method, module);
        table[method] = handler;
      }
    }
    const missing = (Object.keys(contract) as MethodName[]).filter((method) => !this.owners.has(method));
    if (missing.length > 0) {
      throw new Error(
        `no module registers a bridge handler for ${missing.join(', ')}: the module that brings each (app/host/modules.ts) must register it`,
      );
    }
    return served;
  }
}
