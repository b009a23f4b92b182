import type { McpUiHostContext, McpUiStyleVariableKey } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { DisplayMode } from './display-modes';

export type Theme = 'light' | 'dark';

/** Berth's theme as shown: the `data-theme` the shell keeps on <html> (features/shell/theme-sync.tsx). */
export function berthTheme(root: HTMLElement | undefined = globalThis.document?.documentElement): Theme {
  return root?.dataset.theme === 'dark' ? 'dark' : 'light';
}

/** Calls `listener` with the new theme whenever Berth's switches (the setting, or the system on System); returns the unsubscribe. */
export function watchTheme(
  listener: (theme: Theme) => void,
  root: HTMLElement | undefined = globalThis.document?.documentElement,
): () => void {
  if (root === undefined || typeof MutationObserver !== 'function') return () => undefined;
  const observer = new MutationObserver(() => listener(berthTheme(root)));
  observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

/** Spec style variables and the Berth token each is read from, so an app can look at home. */
const STYLE_TOKENS: Partial<Record<McpUiStyleVariableKey, string>> = {
  '--color-background-primary': '--surface',
  '--color-background-secondary': '--surface-2',
  '--color-text-primary': '--text',
  '--color-text-secondary': '--text-muted',
  '--color-text-danger': '--danger',
  '--color-text-success': '--ok',
  '--color-border-primary': '--border',
  '--color-ring-primary': '--focus',
  '--font-sans': '--font-sans',
  '--font-mono': '--font-mono',
  '--border-radius-sm': '--radius-sm',
  '--border-radius-md': '--radius',
};

/** The current values of Berth's tokens as spec style variables (those that resolve). */
export function berthStyleVariables(read: (token: string) => string): Partial<Record<McpUiStyleVariableKey, string>> {
  const variables: Partial<Record<McpUiStyleVariableKey, string>> = {};
  for (const [key, token] of Object.entries(STYLE_TOKENS) as [McpUiStyleVariableKey, string][]) {
    const value = read(token).trim();
    if (value !== '') variables[key] = value;
  }
  return variables;
}

/** Reads a token from the document (the values of the current theme). */
export function readDocumentToken(token: string): string {
  return typeof document === 'undefined' ? '' : getComputedStyle(document.documentElement).getPropertyValue(token);
}

export interface HostContextInput {
  theme: Theme;
  displayMode: DisplayMode;
  availableDisplayModes: readonly DisplayMode[];
  width: number;
  maxHeight: number;
  styles?: Partial<Record<McpUiStyleVariableKey, string>>;
  toolInfo?: McpUiHostContext['toolInfo'];
}

/** What an app is told about where it runs (sent at initialize, then as changes). */
export function buildHostContext(
  input: HostContextInput,
  intl: { locale: string; timeZone: string } = currentIntl(),
): McpUiHostContext {
  return {
    theme: input.theme,
    locale: intl.locale,
    timeZone: intl.timeZone,
    platform: 'desktop',
    displayMode: input.displayMode,
    availableDisplayModes: [...input.availableDisplayModes],
    containerDimensions: { width: Math.round(input.width), maxHeight: Math.round(input.maxHeight) },
    ...(input.styles !== undefined && Object.keys(input.styles).length > 0
      ? {
          styles: { variables: input.styles as McpUiHostContext['styles'] extends { variables?: infer V } ? V : never },
        }
      : {}),
    ...(input.toolInfo !== undefined ? { toolInfo: input.toolInfo } : {}),
  };
}

function currentIntl(): { locale: string; timeZone: string } {
  const options = Intl.DateTimeFormat().resolvedOptions();
  return {
    locale: typeof navigator !== 'undefined' && navigator.language ? navigator.language : options.locale,
    timeZone: options.timeZone,
  };
}
