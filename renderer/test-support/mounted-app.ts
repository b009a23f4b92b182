import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { forgetScrollPositions } from '../features/chat/scroll-memory';
import { stubResizeObserver } from './dom-stubs';
import { mockElementSizes } from './element-sizes';
import { preloadLazyChunks } from './preload-lazy-chunks';

/**
 * The hooks of a test file that mounts the whole App with a conversation open:
 * lazy chunks preloaded, a ResizeObserver and scrollIntoView for jsdom, 100 px
 * message rows in a 600 px scroller, and each test's DOM and scroll memory
 * cleared after it. Call once at the top of the file.
 */
export function useMountedAppEnvironment(): void {
  beforeAll(preloadLazyChunks);
  beforeAll(() => {
    stubResizeObserver();
    Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  });
  let restoreSizes: () => void = () => undefined;
  beforeEach(() => {
    restoreSizes = mockElementSizes({
      scrollerSelector: '.message-scroller',
      viewportHeight: 600,
      rowHeight: () => 100,
    });
  });
  afterEach(() => {
    cleanup();
    restoreSizes();
    forgetScrollPositions();
  });
}
