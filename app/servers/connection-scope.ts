/** Something registered that can be taken back: a listener, a timer. Disposing twice does nothing. */
export interface Disposable {
  dispose(): void;
}

/**
 * Everything the supervisor registers for one live connection (its event
 * listeners, the stable-run timer), taken back at once when the supervisor
 * lets go of that connection (stop, crash). A listener that fires later
 * finds nothing to call, so no callback has to check that its connection is
 * still the current one.
 */
export class ConnectionScope implements Disposable {
  private readonly held = new Set<Disposable>();
  private disposed = false;

  /** Held until the scope is disposed; a scope already disposed disposes it at once. */
  add(disposable: Disposable): Disposable {
    if (this.disposed) {
      disposable.dispose();
      return disposable;
    }
    this.held.add(disposable);
    return {
      dispose: () => {
        this.held.delete(disposable);
        disposable.dispose();
      },
    };
  }

  /** `run` after `ms` unless the scope (or the returned handle) is disposed first; never keeps the process alive. */
  timeout(ms: number, run: () => void): Disposable {
    const timer = setTimeout(() => {
      handle.dispose();
      run();
    }, ms);
    timer.unref?.();
    const handle = this.add({ dispose: () => clearTimeout(timer) });
    return handle;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const held = [...this.held];
    this.held.clear();
    for (const disposable of held) disposable.dispose();
  }
}

/** A typed set of listeners per event; `on` hands back the Disposable that removes the listener. */
export class Listeners<Events extends { [E in keyof Events]: (...args: never[]) => void }> {
  private readonly byEvent = new Map<keyof Events, Set<Events[keyof Events]>>();

  on<E extends keyof Events>(event: E, listener: Events[E]): Disposable {
    let set = this.byEvent.get(event);
    if (set === undefined) this.byEvent.set(event, (set = new Set()));
    const held = set;
    held.add(listener);
    return { dispose: () => held.delete(listener) };
  }

  /** Each listener in turn; one removed by an earlier one (its scope closed) is not called. */
  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const set = this.byEvent.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      if (set.has(listener)) (listener as (...args: Parameters<Events[E]>) => void)(...args);
    }
  }
}
