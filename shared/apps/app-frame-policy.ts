import type { AppUiPermission } from '../domain/app-ui';

// What the app's iframe may do besides running script: its `allow`
// (Permissions Policy) and `sandbox` attributes. Pure and zod-free, shared by
// the sandbox proxy page and the tests.

/** The Permissions Policy feature behind each permission an app may declare. */
export const APP_PERMISSION_FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const satisfies Record<AppUiPermission, string>;

const isAppPermission = (name: string): name is AppUiPermission => Object.hasOwn(APP_PERMISSION_FEATURES, name);

/**
 * Reads the permissions passed with `sandbox-resource-ready`: the spec's
 * object form (`{ camera: {}, … }`) or Berth's list form (`['camera']`).
 * Unknown names are refused and reported; a permission set to `false`,
 * `null` or `undefined` in the object form is not granted.
 */
export function readAppPermissions(value: unknown): { permissions: AppUiPermission[]; refused: string[] } {
  if (value === undefined || value === null) return { permissions: [], refused: [] };
  let names: Array<{ name: string; granted: boolean }>;
  if (Array.isArray(value)) {
    names = value.map((entry) => ({
      name: typeof entry === 'string' ? entry : (JSON.stringify(entry) ?? typeof entry),
      granted: true,
    }));
  } else if (typeof value === 'object') {
    names = Object.entries(value as Record<string, unknown>).map(([name, setting]) => ({
      name,
      granted: setting !== false && setting !== null && setting !== undefined,
    }));
  } else {
    return { permissions: [], refused: [String(value).slice(0, 100)] };
  }
  const permissions: AppUiPermission[] = [];
  const refused: string[] = [];
  for (const { name, granted } of names) {
    if (!isAppPermission(name)) refused.push(name.slice(0, 100));
    else if (granted && !permissions.includes(name)) permissions.push(name);
  }
  return { permissions, refused };
}

/** The iframe `allow` attribute for the granted permissions ('' for none: every feature stays at its default, off for cross-origin frames). */
export function buildAllowAttribute(permissions: readonly AppUiPermission[]): string {
  const features: string[] = [];
  for (const permission of permissions) {
    if (!isAppPermission(permission)) continue;
    const feature = APP_PERMISSION_FEATURES[permission];
    if (!features.includes(feature)) features.push(feature);
  }
  return features.join('; ');
}

/**
 * The most the app's frame ever gets: scripts. No allow-forms: a form posts
 * nowhere from an app (the CSP's form-action is 'none' too), so an app reads
 * its fields in JS (a click or key handler) as the ext-apps examples do; a
 * native submit, and its submit event, do not happen. Never allow-same-origin
 * (the app would share the proxy's origin and could reach its DOM),
 * allow-top-navigation*, allow-popups*, allow-modals, allow-downloads or
 * allow-pointer-lock.
 */
export const APP_SANDBOX_TOKENS = ['allow-scripts'] as const;

/**
 * The inner frame's `sandbox` attribute. The spec lets the host pass an
 * override; Berth accepts it only to narrow the default. Tokens outside
 * APP_SANDBOX_TOKENS are refused and reported.
 */
export function buildSandboxAttribute(override: unknown): { sandbox: string; refused: string[] } {
  if (override === undefined || override === null) return { sandbox: APP_SANDBOX_TOKENS.join(' '), refused: [] };
  if (typeof override !== 'string')
    return { sandbox: APP_SANDBOX_TOKENS.join(' '), refused: [`a ${typeof override}, not a string`] };
  const allowed: readonly string[] = APP_SANDBOX_TOKENS;
  const kept: string[] = [];
  const refused: string[] = [];
  for (const token of override.split(/\s+/).filter((part) => part.length > 0)) {
    const lower = token.toLowerCase();
    if (allowed.includes(lower)) {
      if (!kept.includes(lower)) kept.push(lower);
    } else {
      refused.push(token.slice(0, 100));
    }
  }
  return { sandbox: kept.join(' '), refused };
}
