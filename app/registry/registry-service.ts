import { randomUUID } from 'node:crypto';
import type {
  InstallFieldError,
  LaunchPlan,
  RegistryEntry,
  RegistryEntryDetails,
  RegistryUpdate,
  RegistryVersion,
} from '../../shared/contract/registry';
import {
  addressRisk,
  launchRisks,
  packageSourceKey,
  unconfirmedWords,
  unconfirmedRisks,
} from '../../shared/domain/launch-confirm';
import { sandboxFitProblem } from '../../shared/domain/sandbox';
import { SECRET_MASK, isSecretHeader, type ServerConfig } from '../../shared/domain/server';
import { errorMessage } from '../../shared/error-message';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { registryError } from '../../shared/domain/registry-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { reviewLaunch } from '../config-import/launch-review';
import { buildInstall, installOptions, RUNTIMES } from './install-plan';
import { packageSource } from './package-source';
import type { RegistryCache } from './registry-cache';
import { RegistryRequestError, registryUrl, type RegistryClient } from './registry-client';
import type { RegistrySources } from './registry-sources';
import { parseServerList, parseServerResponse, type ServerResponse } from './server-json';

/** Reviews wait this long for the person's yes. */
const REVIEW_TTL_MS = 30 * 60_000;
const MAX_REVIEWS = 20;
const DELETED = registryError('registry-errors.deleted', {});

export interface RegistryServiceOptions {
  client: RegistryClient;
  cache: RegistryCache;
  sources: RegistrySources;
  /** Every configured server as stored (secrets as references). */
  servers(): Record<string, ServerConfig>;
  /** Every name in use, including servers still running from a broken entry. */
  takenNames(): string[];
  /** The PATH servers start with, to check the runtime (npx, uvx, docker) is there. */
  launchPath(): Promise<string | undefined>;
  /** Where servers without a cwd start. */
  cwd: string;
}

interface Fresh<T> {
  value: T;
  fetchedAt: number;
  fromCache: boolean;
  notice?: string;
}

interface Review {
  serverName: string;
  config: ServerConfig;
  /** A package from somewhere other than its type's public registry: installed only with `source:<url>` confirmed. */
  packageSource?: string;
  expires: number;
}

function official(response: ServerResponse) {
  return response._meta?.['io.modelcontextprotocol.registry/official'];
}

function entryView(response: ServerResponse): RegistryEntry {
  const { server } = response;
  const meta = official(response);
  const kinds = [
    ...new Set([
      ...(server.packages ?? []).map((pkg) => pkg.registryType),
      ...((server.remotes ?? []).length > 0 ? ['remote'] : []),
    ]),
  ];
  const view: RegistryEntry = {
    name: server.name,
    description: server.description,
    version: server.version,
    status: meta?.status ?? 'active',
    kinds,
  };
  if (server.title !== undefined) view.title = server.title;
  if (meta?.statusMessage !== undefined) view.statusMessage = meta.statusMessage;
  if (meta?.publishedAt !== undefined) view.publishedAt = meta.publishedAt;
  if (meta?.updatedAt !== undefined) view.updatedAt = meta.updatedAt;
  return view;
}

/** A value people can read in the review: secret env values masked. */
function maskedEnv(config: ServerConfig): Record<string, string> {
  return Object.fromEntries(
    Object.entries(config.env).map(([key, value]) => [key, config.secretEnv.includes(key) ? SECRET_MASK : value]),
  );
}

/**
 * Discover's host side: searches and details from the configured registries
 * (answers checked by server-json.ts, cached on disk for offline use), the
 * install review (exactly what would run, runtime checked), installs of what
 * was reviewed, and updates of installed servers to their registry's latest.
 */
export class RegistryService {
  private readonly reviews = new Map<string, Review>();

  constructor(private readonly options: RegistryServiceOptions) {}

  sources(): Promise<string[]> {
    return this.options.sources.list();
  }

  setSources(registries: readonly string[]): Promise<string[]> {
    return this.options.sources.set(registries);
  }

  async search(registry: string, query: string, cursor: string | undefined, limit: number) {
    const url = registryUrl(registry, '/v0.1/servers', {
      search: query.trim() === '' ? undefined : query.trim(),
      cursor,
      limit: String(limit),
      version: 'latest',
    });
    const answer = await this.get(url, parseServerList);
    return {
      servers: answer.value.servers.map(entryView),
      skipped: answer.value.skipped,
      ...(answer.value.nextCursor === undefined ? {} : { nextCursor: answer.value.nextCursor }),
      ...freshness(answer),
    };
  }

  async details(registry: string, name: string, version: string) {
    const answer = await this.entry(registry, name, version);
    const { server } = answer.value;
    const deleted = official(answer.value)?.status === 'deleted';
    // A version its publisher deleted stays readable, but is not installed again.
    const options = installOptions(server).map((option) =>
      deleted ? { ...option, unsupported: DELETED.text } : option,
    );
    const details: RegistryEntryDetails = { ...entryView(answer.value), options };
    if (server.repository?.url !== undefined) {
      details.repository = {
        url: server.repository.url,
        ...(server.repository.source === undefined ? {} : { source: server.repository.source }),
        ...(server.repository.subfolder === undefined ? {} : { subfolder: server.repository.subfolder }),
      };
    }
    if (server.websiteUrl !== undefined) details.websiteUrl = server.websiteUrl;
    if (server.postInstallInstructions !== undefined && server.postInstallInstructions !== '')
      details.postInstallInstructions = server.postInstallInstructions;
    const installedAs = Object.entries(this.options.servers()).flatMap(([serverName, config]) =>
      config.registry !== undefined &&
      config.registry.name === server.name &&
      sameRegistry(config.registry.url, registry)
        ? [{ server: serverName, version: config.registry.version }]
        : [],
    );
    return { entry: details, installedAs, ...freshness(answer) };
  }

  /** Every published version of an entry, as the registry lists them (`GET /v0.1/servers/{name}/versions`). */
  async versions(registry: string, name: string) {
    const answer = await this.get(
      registryUrl(registry, `/v0.1/servers/${encodeURIComponent(name)}/versions`),
      parseServerList,
    );
    const versions = answer.value.servers
      .filter((response) => response.server.name === name)
      .map((response): RegistryVersion => {
        const meta = official(response);
        return {
          version: response.server.version,
          status: meta?.status ?? 'active',
          isLatest: meta?.isLatest === true,
          ...(meta?.publishedAt === undefined ? {} : { publishedAt: meta.publishedAt }),
        };
      });
    return { versions, ...freshness(answer) };
  }

  /** Build the config for one option with the person's values; when it builds, remember it under a review id for install. */
  async review(request: {
    registry: string;
    name: string;
    version: string;
    option: number;
    serverName: string;
    values: Record<string, string>;
  }) {
    const serverName = request.serverName.trim();
    const errors: InstallFieldError[] = [];
    const taken = this.options.takenNames().find((name) => name.toLowerCase() === serverName.toLowerCase());
    if (taken !== undefined)
      errors.push(fieldError('serverName', registryError('registry-errors.name-taken', { name: taken })));
    const { value } = await this.entry(request.registry, request.name, request.version);
    if (official(value)?.status === 'deleted')
      return { ready: false as const, errors: [fieldError('option', DELETED)] };
    const built = buildInstall(value.server, request.option, request.values, { registryUrl: request.registry });
    if (!built.ok) errors.push(...built.errors);
    if (!built.ok || errors.length > 0) return { ready: false as const, errors };
    const plan = await this.plan(built.config);
    const pkg = value.server.packages?.[request.option];
    const source = pkg === undefined ? undefined : packageSource(pkg);
    if (source !== undefined) plan.packageSource = source;
    this.prune();
    const reviewId = randomUUID();
    this.reviews.set(reviewId, {
      serverName,
      config: built.config,
      ...(source === undefined ? {} : { packageSource: source.url }),
      expires: Date.now() + REVIEW_TTL_MS,
    });
    return { ready: true as const, reviewId, serverName, plan };
  }

  /**
   * Exactly the reviewed config, taken once: the caller saves it the way the
   * server form does (secret values into the secret store) and starts it.
   * Refused (the review stays open) until `confirmed` names every risk the
   * review flagged: the host decides, not the dialog.
   */
  takeReview(
    reviewId: string,
    sandbox?: { enabled: boolean },
    confirmed?: readonly string[],
  ): { installed: true; serverName: string; config: ServerConfig } | { installed: false; errors: InstallFieldError[] } {
    const review = this.reviews.get(reviewId);
    if (review === undefined || review.expires < Date.now()) {
      this.reviews.delete(reviewId);
      throw HostError.coded('NOT_FOUND', registryError('registry-errors.review-gone', {}), 'reviewId');
    }
    // Refused before it is saved: it would be saved set to a sandbox it cannot start in. The review stays open to change the choice.
    const misfit = sandbox?.enabled === true ? sandboxFitProblem(review.config.command) : undefined;
    if (misfit !== undefined)
      return {
        installed: false,
        errors: [fieldError('sandbox', registryError('registry-errors.sandbox-misfit', { reason: misfit }))],
      };
    const missing = unconfirmedRisks(launchRisks(review.config), confirmed);
    if (missing.length > 0) return { installed: false, errors: [fieldError('confirmed', unconfirmedWords(missing))] };
    if (review.packageSource !== undefined && !(confirmed ?? []).includes(packageSourceKey(review.packageSource))) {
      return {
        installed: false,
        errors: [
          fieldError('confirmed', registryError('registry-errors.confirm-source', { url: review.packageSource })),
        ],
      };
    }
    const taken = this.options.takenNames().find((name) => name.toLowerCase() === review.serverName.toLowerCase());
    if (taken !== undefined)
      return {
        installed: false,
        errors: [fieldError('serverName', registryError('registry-errors.name-taken', { name: taken }))],
      };
    this.reviews.delete(reviewId);
    return { installed: true, serverName: review.serverName, config: review.config };
  }

  async updates(): Promise<{ updates: RegistryUpdate[]; problems: string[] }> {
    const installed = Object.entries(this.options.servers()).flatMap(([server, config]) =>
      config.registry === undefined ? [] : [{ server, from: config.registry }],
    );
    const results = await Promise.all(
      installed.map(async ({ server, from }) => {
        try {
          const { value } = await this.entry(from.url, from.name, 'latest');
          return value.server.version === from.version
            ? {}
            : {
                update: {
                  server,
                  registry: from.url,
                  name: from.name,
                  installed: from.version,
                  latest: value.server.version,
                },
              };
        } catch (error) {
          return { problem: `${server}: cannot check ${from.name} for updates (${errorMessage(error)})` };
        }
      }),
    );
    return {
      updates: results.flatMap((result) => (result.update === undefined ? [] : [result.update])),
      problems: results.flatMap((result) => (result.problem === undefined ? [] : [result.problem])),
    };
  }

  /**
   * An installed server's config rebuilt for its registry's latest version
   * with the same answers; secrets are SECRET_MASK, which saving resolves to
   * the stored values. The caller saves it as the server form's edit does.
   */
  async prepareUpdate(server: string): Promise<{ config: ServerConfig; version: string }> {
    const stored = this.options.servers()[server];
    if (stored === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: server }), 'server');
    const from = stored.registry;
    if (from === undefined)
      throw HostError.coded('INVALID_INPUT', registryError('registry-errors.not-from-registry', { server }), 'server');
    const { value } = await this.entry(from.url, from.name, 'latest');
    const built = buildInstall(value.server, from.option, from.values, {
      registryUrl: from.url,
      keepSecret: (section, key) =>
        section === 'env'
          ? stored.secretEnv.includes(key) && key in stored.env
          : isSecretHeader(stored, key) && key in stored.headers,
    });
    if (!built.ok) {
      throw HostError.coded(
        'INVALID_INPUT',
        registryError('registry-errors.update-needs-more', {
          version: value.server.version,
          name: from.name,
          detail: built.errors.map((error) => error.message).join('; '),
        }),
        'server',
      );
    }
    // An update is installed without a review: it may not bring a risk the installed version did not have.
    const had = new Set(launchRisks(stored).map((risk) => risk.key));
    const added = launchRisks(built.config).filter((risk) => !had.has(risk.key));
    if (added.length > 0) {
      throw HostError.coded(
        'INVALID_INPUT',
        registryError('registry-errors.update-asks-more', {
          version: value.server.version,
          name: from.name,
          detail: added.map((risk) => risk.message).join('; '),
        }),
        'server',
      );
    }
    const config: ServerConfig = {
      ...built.config,
      enabled: stored.enabled,
      timeouts: stored.timeouts,
      restart: stored.restart,
      ...(stored.logLevel === undefined ? {} : { logLevel: stored.logLevel }),
      ...(stored.cwd === undefined || built.config.command === undefined ? {} : { cwd: stored.cwd }),
      ...(stored.oauth === undefined || built.config.url === undefined ? {} : { oauth: stored.oauth }),
    };
    return { config, version: value.server.version };
  }

  private async plan(config: ServerConfig): Promise<LaunchPlan> {
    if (config.url !== undefined) {
      const headerNames = Object.keys(config.headers);
      // Classified from the text alone: nothing connects before the person has confirmed such an address.
      const target = addressRisk(config.url);
      const warnings = target === undefined ? [] : [{ ...target, confirm: true }];
      return {
        kind: 'remote',
        url: config.url,
        transport: config.type === 'sse' ? 'sse' : 'streamable-http',
        headerNames,
        secretHeaderNames: headerNames.filter((name) => isSecretHeader(config, name)),
        secretEnvKeys: [],
        warnings,
      };
    }
    const review = await reviewLaunch(config, {
      launchPath: await this.options.launchPath(),
      defaultCwd: this.options.cwd,
    });
    const plan: LaunchPlan = {
      kind: 'stdio',
      command: config.command ?? '',
      args: [...config.args],
      env: maskedEnv(config),
      secretEnvKeys: [...config.secretEnv],
      secretHeaderNames: [],
      warnings: review.warnings,
      sandboxDefault: sandboxDefault(config.command),
    };
    if (review.resolvedCommand !== undefined) plan.resolvedCommand = review.resolvedCommand;
    else {
      const runtime = Object.values(RUNTIMES).find((candidate) => candidate.command === config.command);
      if (runtime !== undefined) plan.runtimeMissing = runtime.install;
    }
    return plan;
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, review] of this.reviews) if (review.expires < now) this.reviews.delete(id);
    while (this.reviews.size >= MAX_REVIEWS) {
      const oldest = this.reviews.keys().next().value;
      if (oldest === undefined) break;
      this.reviews.delete(oldest);
    }
  }

  private entry(registry: string, name: string, version: string): Promise<Fresh<ServerResponse>> {
    const url = registryUrl(
      registry,
      `/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`,
    );
    return this.get(url, parseServerResponse);
  }

  /**
   * One GET, checked by `parse` and cached. When the registry cannot be
   * reached, fails, or answers nonsense, the last good answer from the
   * cache is used with a notice saying why; a 404 is an answer, not a failure.
   */
  private async get<T>(url: string, parse: (body: unknown) => T): Promise<Fresh<T>> {
    let reason: string;
    try {
      const body = await this.options.client.getJson(url);
      const value = parse(body);
      const fetchedAt = Date.now();
      await this.options.cache.put(url, body, fetchedAt);
      return { value, fetchedAt, fromCache: false };
    } catch (error) {
      if (error instanceof RegistryRequestError && error.status === 404)
        throw HostError.coded('NOT_FOUND', registryError('registry-errors.no-such-entry', { detail: error.message }));
      reason = errorMessage(error);
    }
    const cached = await this.options.cache.get(url);
    if (cached !== undefined) {
      try {
        return {
          value: parse(cached.body),
          fetchedAt: cached.fetchedAt,
          fromCache: true,
          notice: `The registry could not be used (${reason}). Showing what it sent earlier.`,
        };
      } catch {
        // A cached answer that no longer passes the checks is no answer.
      }
    }
    throw HostError.coded('SERVER_ERROR', registryError('registry-errors.unreachable', { detail: reason }));
  }
}

/**
 * How the review's sandbox starts for a local server: on (an installed
 * server is code from elsewhere), except for a container, which is its own
 * boundary and which the OS sandbox would keep from starting.
 */
function sandboxDefault(command: string | undefined): NonNullable<LaunchPlan['sandboxDefault']> {
  const misfit = sandboxFitProblem(command);
  if (misfit === undefined) return { enabled: true };
  return {
    enabled: false,
    reason: `The OS sandbox is off: this server runs in its own container, which is its boundary (it shares with this computer only what the entry mounts into it). In the OS sandbox it could not start: ${misfit}.`,
  };
}

function freshness<T>(answer: Fresh<T>) {
  return {
    fetchedAt: answer.fetchedAt,
    fromCache: answer.fromCache,
    ...(answer.notice === undefined ? {} : { notice: answer.notice }),
  };
}

function sameRegistry(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** A field the review refuses, in English with its code. */
function fieldError(field: string, words: CodedText): InstallFieldError {
  return { field, message: words.text, hostMessage: words.hostMessage };
}
