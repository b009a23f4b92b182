/**
 * jsdom has no ResizeObserver, which Radix primitives and the virtualized
 * lists construct on mount; an inert one lets components render in tests.
 */
export function stubResizeObserver(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
