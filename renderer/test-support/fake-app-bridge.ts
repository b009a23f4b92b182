import type { BridgeModule } from '../features/apps/app-session';

type Handler = ((...args: never[]) => unknown) | undefined;

/**
 * A stand-in for ext-apps' AppBridge and PostMessageTransport: jsdom cannot
 * run the sandbox proxy, so tests drive the bridge's callbacks themselves
 * (`fire`) and read what the host side sent (`sent`, in order).
 */
export class FakeAppBridge {
  static instances: FakeAppBridge[] = [];
  sent: [string, unknown][] = [];
  transport: FakePostMessageTransport | undefined;
  appCapabilities: { availableDisplayModes?: string[] } | undefined;
  closed = false;
  handlers: Record<string, Handler> = {};
  constructor(
    readonly client: unknown,
    readonly hostInfo: { name: string; version: string },
    readonly hostCapabilities: Record<string, unknown>,
    readonly options: { hostContext?: Record<string, unknown> },
  ) {
    FakeAppBridge.instances.push(this);
    // The on* setters of the real bridge, recorded by name.
    for (const name of [
      'onsandboxready',
      'oninitialized',
      'onsizechange',
      'onrequestteardown',
      'onloggingmessage',
      'oncalltool',
      'onreadresource',
      'onlistresources',
      'onopenlink',
      'onmessage',
      'onupdatemodelcontext',
      'onrequestdisplaymode',
    ]) {
      Object.defineProperty(this, name, {
        set: (handler: Handler) => (this.handlers[name] = handler),
        get: () => this.handlers[name],
      });
    }
  }
  /** Calls a handler the host set, as an app message would. */
  fire(name: string, ...args: unknown[]): unknown {
    const handler = this.handlers[name] as ((...a: unknown[]) => unknown) | undefined;
    if (!handler) throw new Error(`no ${name} handler was set`);
    return handler(...args);
  }
  connect(transport: FakePostMessageTransport) {
    this.transport = transport;
    this.sent.push(['connect', undefined]);
    return Promise.resolve();
  }
  getAppCapabilities() {
    return this.appCapabilities;
  }
  private record(method: string, params: unknown) {
    this.sent.push([method, params]);
    return Promise.resolve();
  }
  sendSandboxResourceReady(params: unknown) {
    return this.record('sendSandboxResourceReady', params);
  }
  sendToolInput(params: unknown) {
    return this.record('sendToolInput', params);
  }
  sendToolResult(params: unknown) {
    return this.record('sendToolResult', params);
  }
  sendToolCancelled(params: unknown) {
    return this.record('sendToolCancelled', params);
  }
  setHostContext(params: unknown) {
    void this.record('setHostContext', params);
  }
  teardownResource(params: unknown) {
    return this.record('teardownResource', params).then(() => ({}));
  }
  close() {
    this.closed = true;
    return this.record('close', undefined);
  }
}

export class FakePostMessageTransport {
  constructor(
    readonly target: Window | undefined,
    readonly source: MessageEventSource,
  ) {}
}

export const fakeBridgeModule = {
  AppBridge: FakeAppBridge,
  PostMessageTransport: FakePostMessageTransport,
} as unknown as BridgeModule;

export function lastBridge(): FakeAppBridge {
  const bridge = FakeAppBridge.instances.at(-1);
  if (!bridge) throw new Error('no AppBridge was created');
  return bridge;
}
