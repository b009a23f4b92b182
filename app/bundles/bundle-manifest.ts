import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import { bundleError } from '../../shared/domain/bundle-errors';
import type { BundleField, BundleManifestView } from '../../shared/contract/bundles';
import { BundleRefused } from './bundle-refused';

/** A manifest is a small JSON file; anything bigger is not one. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export type BundleManifest = McpbManifestAny;

type ManifestSchemas = (typeof import('@anthropic-ai/mcpb/node'))['MANIFEST_SCHEMAS'];

function versionOf(schemas: ManifestSchemas, data: Record<string, unknown>): keyof ManifestSchemas | undefined {
  const declared = data.manifest_version ?? data.dxt_version;
  return typeof declared === 'string' && Object.prototype.hasOwnProperty.call(schemas, declared)
    ? (declared as keyof ManifestSchemas)
    : undefined;
}

/**
 * The manifest checked with @anthropic-ai/mcpb's own schema for its declared
 * `manifest_version` (the package's zod 3 schemas, used as they are, so
 * Berth accepts exactly what the bundle tooling accepts), or a refusal that
 * lists what is wrong, field by field.
 */
export async function parseManifest(bytes: Buffer | undefined): Promise<BundleManifest> {
  if (bytes === undefined) throw new BundleRefused(bundleError('bundle-errors.no-manifest', {}));
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new BundleRefused(
      bundleError('bundle-errors.manifest-not-json', {
        detail: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BundleRefused(bundleError('bundle-errors.manifest-not-object', {}));
  // Loaded on first use: @anthropic-ai/mcpb takes ~0.5 s to import, which no start-up should pay.
  const { MANIFEST_SCHEMAS } = await import('@anthropic-ai/mcpb/node');
  const version = versionOf(MANIFEST_SCHEMAS, data as Record<string, unknown>);
  if (version === undefined) {
    const declared =
      (data as Record<string, unknown>).manifest_version ?? (data as Record<string, unknown>).dxt_version;
    const supported = Object.keys(MANIFEST_SCHEMAS).join(', ');
    throw new BundleRefused(
      declared === undefined
        ? bundleError('bundle-errors.manifest-no-version', { supported })
        : bundleError('bundle-errors.manifest-unknown-version', { declared: JSON.stringify(declared), supported }),
    );
  }
  const parsed = MANIFEST_SCHEMAS[version].safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 8)
      .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
    const more = parsed.error.issues.length > 8 ? ` (and ${parsed.error.issues.length - 8} more)` : '';
    throw new BundleRefused(bundleError('bundle-errors.manifest-invalid', { detail: `${issues.join('; ')}${more}` }));
  }
  const manifest = parsed.data as BundleManifest;
  if (!/^[^\s/\\]/.test(manifest.server.entry_point) || manifest.server.entry_point.split(/[\\/]/).includes('..')) {
    throw new BundleRefused(
      bundleError('bundle-errors.entry-point-outside', { entryPoint: manifest.server.entry_point }),
    );
  }
  return manifest;
}

/** What the panel shows about a bundle. */
export function manifestView(manifest: BundleManifest): BundleManifestView {
  const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> =>
    value === undefined ? {} : ({ [key]: value } as Record<K, string>);
  const named = (entries: readonly { name: string; description?: string | undefined }[] | undefined) =>
    (entries ?? []).map((entry) => ({ name: entry.name, ...optional('description', entry.description) }));
  return {
    manifestVersion: manifest.manifest_version ?? manifest.dxt_version ?? '',
    name: manifest.name,
    ...optional('displayName', manifest.display_name),
    version: manifest.version,
    description: manifest.description,
    ...optional('longDescription', manifest.long_description),
    author: {
      name: manifest.author.name,
      ...optional('email', manifest.author.email),
      ...optional('url', manifest.author.url),
    },
    ...optional('homepage', manifest.homepage),
    ...optional('repository', manifest.repository?.url),
    ...optional('license', manifest.license),
    serverType: manifest.server.type,
    entryPoint: manifest.server.entry_point,
    tools: named(manifest.tools),
    toolsGenerated: manifest.tools_generated === true,
    prompts: named(manifest.prompts),
    promptsGenerated: manifest.prompts_generated === true,
    keywords: [...(manifest.keywords ?? [])],
  };
}

/** The manifest's `user_config` as form fields; `fill` puts `${HOME}` and the other folders into defaults. */
export function manifestFields(manifest: BundleManifest, fill: (text: string) => string): BundleField[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, option]) => {
    const field: BundleField = {
      key,
      type: option.type,
      title: option.title,
      description: option.description,
      required: option.required === true,
      sensitive: option.sensitive === true,
      multiple: option.multiple === true,
    };
    if (option.min !== undefined) field.min = option.min;
    if (option.max !== undefined) field.max = option.max;
    const fallback = option.default;
    if (fallback !== undefined)
      field.default =
        typeof fallback === 'string' ? fill(fallback) : Array.isArray(fallback) ? fallback.map(fill) : fallback;
    return field;
  });
}
