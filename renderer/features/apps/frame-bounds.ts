/** The height an app frame may take inline, whatever the app asks for. */
export const MIN_APP_HEIGHT = 48;
export const MAX_APP_HEIGHT = 1_200;
/** Before the app has said how tall it is. */
export const DEFAULT_APP_HEIGHT = 240;

/** The app's requested height within bounds; nonsense (NaN, negative, missing) keeps the current one. */
export function clampAppHeight(requested: number | undefined, current: number): number {
  if (requested === undefined || !Number.isFinite(requested)) return current;
  return Math.round(Math.min(MAX_APP_HEIGHT, Math.max(MIN_APP_HEIGHT, requested)));
}

/** The card's frame border (apps.css `.app-frame-host`, 1px, transparent when borderless): inside the box, around the app. */
export const APP_FRAME_BORDER_PX = 1;

/**
 * The frame's outer height for an app that asked for `appHeight`: the border
 * box adds its border back, so the app's viewport is exactly what it asked for.
 * Without it an app sized to its window (`height: 100vh`) loses 2 px per round.
 */
export function frameBoxHeight(appHeight: number): number {
  return appHeight + 2 * APP_FRAME_BORDER_PX;
}

/** Over this, one message from an app is refused: a card has no use for bigger ones. */
export const MAX_APP_REQUEST_JSON_CHARS = 1_000_000;

/** The size of a request's params as JSON, or Infinity when they cannot be serialized. */
export function requestJsonSize(params: unknown): number {
  try {
    return JSON.stringify(params ?? null).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Calls at most once per `intervalMs` with the newest value (the first at once,
 * the last one always delivered), for resize notifications.
 */
export function throttleLatest<T>(
  intervalMs: number,
  deliver: (value: T) => void,
  timers: Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'> = globalThis,
) {
  let last = Number.NEGATIVE_INFINITY;
  let pending: { value: T } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    last = Date.now();
    deliver(value);
  };
  return {
    push(value: T) {
      pending = { value };
      if (timer !== undefined) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer = timers.setTimeout(flush, wait);
    },
    cancel() {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
