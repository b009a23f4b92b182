import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps/app-bridge';

export type DisplayMode = McpUiDisplayMode;

/** What Berth can show an app as: in the card, over the whole window (Escape leaves), or a small floating panel. */
export const HOST_DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen', 'pip'];

/**
 * The mode an app gets when it asks for `requested`: it must be one Berth
 * offers and one the app declared in its `availableDisplayModes` (inline is
 * always possible); anything else keeps `current`. The answer is the mode set.
 */
export function negotiateDisplayMode(
  requested: unknown,
  current: DisplayMode,
  appModes: readonly string[] | undefined,
  hostModes: readonly DisplayMode[] = HOST_DISPLAY_MODES,
): DisplayMode {
  const mode = HOST_DISPLAY_MODES.find((m) => m === requested);
  if (mode === undefined || !hostModes.includes(mode)) return current;
  if (mode === 'inline') return mode;
  return appModes?.includes(mode) === true ? mode : current;
}
