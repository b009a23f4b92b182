import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { forgetScrollPositions } from '../features/chat/scroll-memory';
import { stubResizeObserver } from './dom-stubs';
import { mockElementSizes } from './element-sizes';
import { preloadLazyChunks } from './preload-lazy-chunks';

/**
 * The set-up of a test file that renders the whole chat view: the lazy chunks ready, ResizeObserver and
 * scrollIntoView stubbed for jsdom, message rows 100 px high in a 600 px scroller, and after each test the DOM,
 * the sizes and the remembered scroll positions reset. Call once at the top of the file.
 */
export function setUpChatViewTests(): void {
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
