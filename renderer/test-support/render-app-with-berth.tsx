import { render } from '@testing-library/react';
import { App } from '../app';
import { berthHost, type BerthRender, type BerthRenderOptions } from './render-with-berth';

/**
 * Renders the whole App over a fake host, as main.tsx does over the real one
 * (the App brings its own store provider and tooltips). Its own file so the
 * tests of one component do not load the whole app.
 */
export function renderAppWithBerth(options: BerthRenderOptions = {}): BerthRender {
  const { transport, store } = berthHost(options);
  const view = render(<App store={store} transport={transport} />);
  return { ...view, transport, store };
}
