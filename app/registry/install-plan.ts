import type { InstallOption } from '../../shared/contract/registry';
import {
  EnvKeySchema,
  HeaderNameSchema,
  SECRET_MASK,
  ServerConfigSchema,
  ServerUrlSchema,
  type ServerConfig,
} from '../../shared/domain/server';
import { argumentFields, argumentValues, dockerRunArgs } from './install-arguments';
import { inputFields, isSecretInput, resolveInput, type Answers } from './install-fields';
import type { RegistryPackage, RegistryTransport, ServerDetail } from './server-json';

/** The program each supported package type runs with, and where to get it. */
export const RUNTIMES: Readonly<Record<string, { command: string; install: string }>> = {
  npm: { command: 'npx', install: 'Install Node.js (it brings npx): https://nodejs.org' },
  pypi: {
    command: 'uvx',
    install: 'Install uv (it brings uvx): https://docs.astral.sh/uv/getting-started/installation/',
  },
  oci: { command: 'docker', install: 'Install Docker: https://docs.docker.com/get-started/get-docker/' },
};

// Package names and versions go on a command line: only what the package registries allow,
// and never a leading dash (it would be read as an option of npx, uvx or docker).
const IDENTIFIERS: Readonly<Record<string, RegExp>> = {
  npm: /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
  pypi: /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  oci: /^[a-z0-9][a-z0-9._/-]*(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(@sha256:[a-f0-9]{64})?$/,
};
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;

/** Why a package cannot be installed (yet), or undefined when it can. */
function packageProblem(pkg: RegistryPackage): string | undefined {
  const runtime = RUNTIMES[pkg.registryType];
  if (runtime === undefined) return `${pkg.registryType} packages are not supported yet`;
  if (pkg.transport.type !== 'stdio')
    return `This package runs its own ${pkg.transport.type} server; Berth installs packages that talk over stdio (not supported yet)`;
  const identifier = IDENTIFIERS[pkg.registryType];
  if (identifier === undefined || !identifier.test(pkg.identifier) || pkg.identifier.length > 300)
    return `"${pkg.identifier}" is not a valid ${pkg.registryType} package name`;
  const pinned = pkg.registryType === 'oci' && /[:@][^/]*$/.test(pkg.identifier);
  if (!pinned && pkg.version === undefined)
    return 'The entry names no package version, so what would run is not pinned';
  if (pkg.version !== undefined && (!VERSION.test(pkg.version) || pkg.version === 'latest'))
    return `"${pkg.version}" is not an exact version`;
  const args = [...(pkg.runtimeArguments ?? []), ...(pkg.packageArguments ?? [])];
  if (args.some((arg) => isSecretInput(arg)))
    return 'It passes a secret on the command line, where other programs on this computer can read it: Berth does not install that';
  return undefined;
}

function remoteProblem(remote: RegistryTransport): string | undefined {
  if (remote.type !== 'streamable-http' && remote.type !== 'sse') return `"${remote.type}" remotes are not supported`;
  if (remote.url === undefined) return 'The remote has no URL';
  return undefined;
}

/** Every way an entry can run, with the values each asks for; unsupported ones say why. */
export function installOptions(server: ServerDetail): InstallOption[] {
  const packages = (server.packages ?? []).map((pkg, index): InstallOption => {
    const problem = packageProblem(pkg);
    const option: InstallOption = {
      index,
      kind: 'package',
      label: `${pkg.identifier}${pkg.version === undefined ? '' : `@${pkg.version}`}`,
      registryType: pkg.registryType,
      transport: pkg.transport.type,
      fields: [
        ...argumentFields(pkg.runtimeArguments, 'runtime'),
        ...argumentFields(pkg.packageArguments, 'package'),
        ...(pkg.environmentVariables ?? []).flatMap((env) =>
          inputFields(`env:${env.name}`, env, { kind: 'env', label: env.name }),
        ),
      ],
    };
    const runtime = RUNTIMES[pkg.registryType];
    if (runtime !== undefined) option.runtime = runtime.command;
    if (problem !== undefined) option.unsupported = problem;
    return option;
  });
  const offset = packages.length;
  const remotes = (server.remotes ?? []).map((remote, index): InstallOption => {
    const problem = remoteProblem(remote);
    const option: InstallOption = {
      index: offset + index,
      kind: 'remote',
      label: remote.url ?? '(no URL)',
      transport: remote.type,
      fields: [
        ...Object.entries(remote.variables ?? {}).flatMap(([name, variable]) =>
          inputFields(`url:var:${name}`, variable, { kind: 'variable', label: name }),
        ),
        ...(remote.headers ?? []).flatMap((header) =>
          inputFields(`header:${header.name}`, header, { kind: 'header', label: header.name }),
        ),
      ],
    };
    if (problem !== undefined) option.unsupported = problem;
    return option;
  });
  return [...packages, ...remotes];
}

/** What a built install needs besides the person's values. */
export interface BuildContext {
  /** Registry URL and entry, remembered in the config for updates. */
  registryUrl: string;
  /**
   * Update: a secret the person does not enter again keeps its stored value
   * (SECRET_MASK, which the secret store resolves), when the server had it.
   */
  keepSecret?: (section: 'env' | 'headers', key: string) => boolean;
}

export type BuildResult =
  { ok: true; config: ServerConfig } | { ok: false; errors: { field: string; message: string }[] };

/** A secret env value or header left empty on an update keeps the stored one. */
function keptSecret(
  id: string,
  section: 'env' | 'headers',
  key: string,
  context: BuildContext,
  values: Readonly<Record<string, string>>,
): boolean {
  const entered = Object.entries(values).some(
    ([field, value]) => (field === id || field.startsWith(`${id}:var:`)) && value !== '',
  );
  return !entered && context.keepSecret?.(section, key) === true;
}

function buildPackage(
  pkg: RegistryPackage,
  answers: Answers,
  context: BuildContext,
): Omit<ServerConfig, 'registry'> | undefined {
  const runtime = RUNTIMES[pkg.registryType];
  if (runtime === undefined) return undefined;
  const env: Record<string, string> = {};
  const secretEnv: string[] = [];
  for (const variable of pkg.environmentVariables ?? []) {
    const key = variable.name;
    const id = `env:${key}`;
    if (!EnvKeySchema.safeParse(key).success) {
      answers.errors.push({ field: id, message: `"${key}" is not a valid environment variable name` });
      continue;
    }
    const secret = isSecretInput(variable);
    if (secret && keptSecret(id, 'env', key, context, answers.values)) {
      env[key] = SECRET_MASK;
      secretEnv.push(key);
      continue;
    }
    const value = resolveInput(id, variable, key, answers);
    if (value === undefined) continue;
    env[key] = value;
    if (secret) secretEnv.push(key);
  }
  const runtimeArgs = argumentValues(pkg.runtimeArguments, 'runtime', answers);
  const packageArgs = argumentValues(pkg.packageArguments, 'package', answers);
  let args: string[];
  if (pkg.registryType === 'npm') {
    const yes = runtimeArgs.includes('-y') || runtimeArgs.includes('--yes') ? [] : ['-y'];
    args = [...runtimeArgs, ...yes, `${pkg.identifier}@${pkg.version ?? ''}`, ...packageArgs];
  } else if (pkg.registryType === 'pypi') {
    args = [...runtimeArgs, `${pkg.identifier}==${pkg.version ?? ''}`, ...packageArgs];
  } else {
    const image = /[:@][^/]*$/.test(pkg.identifier) ? pkg.identifier : `${pkg.identifier}:${pkg.version ?? ''}`;
    args = dockerRunArgs(runtimeArgs, Object.keys(env), image, packageArgs);
  }
  return ServerConfigSchema.parse({ command: runtime.command, args, env, secretEnv });
}

function buildRemote(
  remote: RegistryTransport,
  answers: Answers,
  context: BuildContext,
): Omit<ServerConfig, 'registry'> | undefined {
  const template = remote.url ?? '';
  const url = resolveInput(
    'url',
    { value: template, variables: Object.fromEntries(Object.entries(remote.variables ?? {})) },
    'the address',
    answers,
    encodeURIComponent,
  );
  const headers: Record<string, string> = {};
  const secretHeaders: string[] = [];
  for (const header of remote.headers ?? []) {
    const id = `header:${header.name}`;
    if (!HeaderNameSchema.safeParse(header.name).success) {
      answers.errors.push({ field: id, message: `"${header.name}" is not a valid header name` });
      continue;
    }
    const secret = isSecretInput(header);
    if (secret && keptSecret(id, 'headers', header.name, context, answers.values)) {
      headers[header.name] = SECRET_MASK;
      secretHeaders.push(header.name);
      continue;
    }
    const value = resolveInput(id, header, header.name, answers);
    if (value === undefined) continue;
    headers[header.name] = value;
    if (secret) secretHeaders.push(header.name);
  }
  if (url === undefined) return undefined;
  const checked = ServerUrlSchema.safeParse(url);
  if (!checked.success) {
    answers.errors.push({
      field: 'url',
      message: `The address ${url} cannot be used: ${checked.error.issues[0]?.message ?? 'invalid'}`,
    });
    return undefined;
  }
  return ServerConfigSchema.parse({
    url: checked.data,
    type: remote.type === 'sse' ? 'sse' : 'http',
    headers,
    secretHeaders,
  });
}

/**
 * The server config for one install option and the person's answers: the
 * command line (npx/uvx/docker with the pinned package and its arguments) and
 * env, or the remote's URL and headers. Secret values stay in the config as
 * given (marked in secretEnv/secretHeaders): saving moves them to the secret
 * store. The config remembers the registry entry and the non-secret answers.
 */
export function buildInstall(
  server: ServerDetail,
  optionIndex: number,
  values: Readonly<Record<string, string>>,
  context: BuildContext,
): BuildResult {
  const options = installOptions(server);
  const option = options[optionIndex];
  if (option === undefined)
    return {
      ok: false,
      errors: [{ field: 'option', message: `${server.name} has no install option ${optionIndex + 1}` }],
    };
  if (option.unsupported !== undefined)
    return { ok: false, errors: [{ field: 'option', message: option.unsupported }] };
  const answers: Answers = { values, errors: [] };
  const packages = server.packages ?? [];
  const built =
    optionIndex < packages.length
      ? buildPackage(packages[optionIndex] as RegistryPackage, answers, context)
      : buildRemote((server.remotes ?? [])[optionIndex - packages.length] as RegistryTransport, answers, context);
  if (answers.errors.length > 0 || built === undefined)
    return {
      ok: false,
      errors:
        answers.errors.length > 0 ? answers.errors : [{ field: 'option', message: 'This option cannot be built' }],
    };
  const secretIds = new Set(option.fields.filter((field) => field.secret).map((field) => field.id));
  const remembered = Object.fromEntries(
    Object.entries(values).filter(
      ([id, value]) => value !== '' && !secretIds.has(id) && option.fields.some((field) => field.id === id),
    ),
  );
  return {
    ok: true,
    config: {
      ...built,
      registry: {
        url: context.registryUrl,
        name: server.name,
        version: server.version,
        option: optionIndex,
        values: remembered,
      },
    },
  };
}
