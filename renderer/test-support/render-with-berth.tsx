import { render, type RenderResult } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import type { ReactNode } from 'react';
import { BerthI18nProvider } from '../i18n/provider';
import { createBerthStore, StoreProvider, type BerthStore } from '../store';
import { createFakeTransport, type FakeHandlers, type FakeTransport } from './fake-transport';

export interface BerthRenderOptions {
  /** The fake host's answers; ignored when `transport` is given. */
  handlers?: FakeHandlers;
  transport?: FakeTransport;
  /** A store already mounted in this test: a second part of the app shown beside the first. */
  store?: BerthStore;
  /** Runs on the new store before the first render (host snapshots, an open dialog…). */
  prepare?: (store: BerthStore) => void;
}

export interface BerthRender extends RenderResult {
  transport: FakeTransport;
  store: BerthStore;
}

/** The fake host and the store over it that a test renders against. */
export function berthHost(options: BerthRenderOptions): { transport: FakeTransport; store: BerthStore } {
  const transport = options.transport ?? createFakeTransport(options.handlers);
  const store = options.store ?? createBerthStore(transport);
  if (options.store === undefined) options.prepare?.(store);
  return { transport, store };
}

/**
 * Renders `ui` as the app would hold it: a Berth store over a fake host, the
 * active locale's messages (English unless the test activates another) and
 * the tooltip provider the shell gives every view. The one `mount` of
 * renderer tests; a test adds only what is particular to it (the whole App:
 * render-app-with-berth.tsx).
 */
export function renderWithBerth(ui: ReactNode, options: BerthRenderOptions = {}): BerthRender {
  const { transport, store } = berthHost(options);
  const view = render(ui, { wrapper: berthWrapper(store) });
  return { ...view, transport, store };
}

/** What renderWithBerth puts around a component, as a `wrapper` for a hook's test (renderHook). */
export function berthWrapper(store: BerthStore): (props: { children: ReactNode }) => ReactNode {
  return function BerthWrapper({ children }) {
    return (
      <StoreProvider store={store}>
        <BerthI18nProvider>
          <Tooltip.Provider>{children}</Tooltip.Provider>
        </BerthI18nProvider>
      </StoreProvider>
    );
  };
}
