/**
 * jsdom lays nothing out, so a virtualized list would render no rows. This gives
 * the elements a virtualizer reads the sizes a browser would: scroll containers
 * (matched by `scrollerSelector`) a viewport height and a scrollHeight from their
 * content, rows (elements with `data-index`) a height, and a scrollTop that sticks
 * within bounds. Returns a function that puts jsdom back.
 */
export function mockElementSizes({
  scrollerSelector,
  viewportHeight,
  rowHeight,
}: {
  scrollerSelector: string;
  viewportHeight: number;
  rowHeight: (row: HTMLElement) => number;
}): () => void {
  const proto = HTMLElement.prototype;
  // What HTMLElement.prototype itself had (offset* live there; client*/scroll* on Element.prototype).
  const saved = (
    ['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth', 'scrollHeight', 'scrollTop'] as const
  ).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)] as const);
  const scrollTops = new WeakMap<HTMLElement, number>();
  const isScroller = (el: HTMLElement) => el.matches(scrollerSelector);
  const contentHeight = (el: HTMLElement): number => {
    // The content is the tallest child (the list sets its own height) plus what follows it.
    let height = 0;
    for (const child of Array.from(el.children) as HTMLElement[])
      height += Number.parseFloat(child.style.height) || (child.dataset.index === undefined ? 0 : rowHeight(child));
    return height;
  };
  const define = (name: string, get: (this: HTMLElement) => number, set?: (this: HTMLElement, value: number) => void) =>
    Object.defineProperty(proto, name, { configurable: true, get, ...(set ? { set } : {}) });

  define('clientHeight', function () {
    return isScroller(this) ? viewportHeight : 0;
  });
  define('clientWidth', function () {
    return isScroller(this) ? 800 : 0;
  });
  define('offsetHeight', function () {
    return this.dataset.index !== undefined ? rowHeight(this) : isScroller(this) ? viewportHeight : 0;
  });
  define('offsetWidth', function () {
    return 800;
  });
  define('scrollHeight', function () {
    return isScroller(this) ? Math.max(viewportHeight, contentHeight(this)) : 0;
  });
  define(
    'scrollTop',
    function () {
      return scrollTops.get(this) ?? 0;
    },
    function (value) {
      const max = isScroller(this) ? Math.max(0, this.scrollHeight - viewportHeight) : 0;
      scrollTops.set(this, Math.min(max, Math.max(0, value)));
    },
  );
  // The virtualizer scrolls with scrollTo; jsdom does not implement it.
  const savedScrollTo = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTo');
  Object.defineProperty(Element.prototype, 'scrollTo', {
    configurable: true,
    value(this: HTMLElement, options: ScrollToOptions | number, y?: number) {
      const top = typeof options === 'number' ? y : options.top;
      if (top !== undefined) this.scrollTop = top;
      this.dispatchEvent(new Event('scroll'));
    },
  });

  return () => {
    for (const [name, descriptor] of saved) {
      if (descriptor) Object.defineProperty(proto, name, descriptor);
      else delete (proto as unknown as Record<string, unknown>)[name];
    }
    if (savedScrollTo) Object.defineProperty(Element.prototype, 'scrollTo', savedScrollTo);
    else delete (Element.prototype as unknown as Record<string, unknown>).scrollTo;
  };
}
