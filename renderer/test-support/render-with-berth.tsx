import { render, type RenderResult } from '@testing-library/react';
import { Tooltip } from 'radix-ui';
import type { ReactNode } from 'react';
import { createBerthStore, StoreProvider, type BerthStore } from '../store';
import { createFakeTransport, type FakeHandlers, type FakeTransport } from './fake-transport';

export interface BerthRenderOptions {
  /** The fake host's answers; ignored when `transport` is given. */
  handlers?: FakeHandlers;
  transport?: FakeTransport;
  /** Runs on the new store before the first render (host snapshots, an open dialog…). */
  prepare?: (store: BerthStore) => void;
}

export interface BerthRender extends RenderResult {
  transport: FakeTransport;
  store: BerthStore;
}

/**
 * Renders `ui` as the app would hold it: a Berth store over a fake host, and
 * the tooltip provider the shell gives every view. The one `mount` of
 * renderer tests; a test adds only what is particular to it.
 */
export function renderWithBerth(ui: ReactNode, options: BerthRenderOptions = {}): BerthRender {
  const transport = options.transport ?? createFakeTransport(options.handlers);
  const store = createBerthStore(transport);
  options.prepare?.(store);
  const view = render(
    <StoreProvider store={store}>
      <Tooltip.Provider>{ui}</Tooltip.Provider>
    </StoreProvider>,
  );
  return { ...view, transport, store };
}
