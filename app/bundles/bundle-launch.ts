import { join, delimiter as listSeparator, sep } from 'node:path';
import type { BundleField, BundleProblem } from '../../shared/contract/bundles';
import { SECRET_MASK } from '../../shared/domain/server';
import type { BundleManifest } from './bundle-manifest';
import { settingProblem, type SettingValue } from './bundle-values';
import { bundleError } from '../../shared/domain/bundle-errors';

/** What `${…}` stands for besides the settings: the MCPB spec's variables. */
export interface LaunchVariables {
  /** `${__dirname}`: the folder the bundle is unpacked into. */
  bundleDir: string;
  home: string;
  platform: NodeJS.Platform;
}

/** A bundle's command as Berth will run it, and which env values hold a sensitive setting. */
export interface BundleLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Env keys whose value holds a sensitive setting: stored as secrets, masked, redacted. */
  secretEnv: string[];
  /** Why it cannot run this way (a secret on the command line): install refuses. */
  problems: BundleProblem[];
}

/** The spec's folder variables (`${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`) and path separators. */
export function systemVariables(home: string): Record<string, string> {
  return {
    HOME: home,
    DESKTOP: join(home, 'Desktop'),
    DOCUMENTS: join(home, 'Documents'),
    DOWNLOADS: join(home, 'Downloads'),
    pathSeparator: sep,
    '/': sep,
  };
}

const VARIABLE = /\$\{([^{}]+)\}/g;

/** Fills the system variables alone (for a field's default), leaving everything else as written. */
export function fillSystemVariables(text: string, home: string): string {
  const system = systemVariables(home);
  return text.replace(VARIABLE, (whole, name: string) => system[name] ?? whole);
}

/** The command the manifest gives for this platform (`platform_overrides`), or the spec's default for its server type. */
function baseConfig(
  manifest: BundleManifest,
  platform: NodeJS.Platform,
): { command: string; args: string[]; env: Record<string, string> } {
  const entry = `\${__dirname}/${manifest.server.entry_point}`;
  const given = manifest.server.mcp_config;
  if (given === undefined) {
    const byType: Record<string, { command: string; args: string[] }> = {
      node: { command: 'node', args: [entry] },
      python: { command: platform === 'win32' ? 'python' : 'python3', args: [entry] },
      binary: { command: entry, args: [] },
      uv: { command: 'uv', args: ['run', '--directory', '${__dirname}', manifest.server.entry_point] },
    };
    return { ...byType[manifest.server.type]!, env: {} };
  }
  const override = given.platform_overrides?.[platform];
  return {
    command: override?.command ?? given.command,
    args: [...(override?.args ?? given.args ?? [])],
    env: { ...(override?.env ?? given.env ?? {}) },
  };
}

/**
 * `server.mcp_config` with every `${…}` filled in one pass (a value the
 * person typed is never read again for variables): `${__dirname}`, the
 * folders, the separators and `${user_config.<key>}`. An argument that is
 * exactly one list setting becomes one argument per item; inside other text a
 * list is joined with the platform's list separator. An unset optional
 * setting is an empty string (an argument that is only that setting is left
 * out). A sensitive setting may go into env values only: on the command line
 * every local user could read it.
 */
export function buildLaunch(
  manifest: BundleManifest,
  fields: readonly BundleField[],
  values: ReadonlyMap<string, SettingValue>,
  variables: LaunchVariables,
): BundleLaunch {
  const system: Record<string, string> = { ...systemVariables(variables.home), __dirname: variables.bundleDir };
  const declared = new Map(fields.map((field) => [field.key, field]));
  const problems: BundleProblem[] = [];
  let sensitiveSeen: BundleField[] = [];
  // `masked`: a sensitive value reads SECRET_MASK (the command line is refused with one, but still shown).
  const fill = (text: string, masked = false): string =>
    text.replace(VARIABLE, (whole, name: string) => {
      if (Object.prototype.hasOwnProperty.call(system, name)) return system[name]!;
      if (!name.startsWith('user_config.')) return whole;
      const field = declared.get(name.slice('user_config.'.length));
      if (field === undefined) return whole;
      const value = values.get(field.key);
      if (value === undefined) return '';
      if (field.sensitive) {
        sensitiveSeen.push(field);
        if (masked) return SECRET_MASK;
      }
      return Array.isArray(value) ? value.join(listSeparator) : value;
    });
  const refuseSecret = (where: 'command' | 'commandLine'): void => {
    for (const field of sensitiveSeen) {
      problems.push(
        settingProblem(
          `values.${field.key}`,
          bundleError('bundle-errors.secret-exposed', { title: field.title, where }),
        ),
      );
    }
    sensitiveSeen = [];
  };
  const base = baseConfig(manifest, variables.platform);
  const command = fill(base.command, true);
  refuseSecret('command');
  const args: string[] = [];
  for (const arg of base.args) {
    const whole = /^\$\{user_config\.([^{}]+)\}$/.exec(arg);
    const field = whole === null ? undefined : declared.get(whole[1]!);
    if (field !== undefined) {
      const value = values.get(field.key);
      if (field.sensitive && value !== undefined) {
        sensitiveSeen.push(field);
        args.push(SECRET_MASK);
      } else if (Array.isArray(value)) args.push(...value);
      else if (value !== undefined) args.push(value);
    } else args.push(fill(arg, true));
  }
  refuseSecret('commandLine');
  const env: Record<string, string> = {};
  const secretEnv: string[] = [];
  for (const [key, raw] of Object.entries(base.env)) {
    env[key] = fill(raw);
    if (sensitiveSeen.length > 0 && env[key] !== '') secretEnv.push(key);
    sensitiveSeen = [];
  }
  return { command, args, env, secretEnv, problems };
}
