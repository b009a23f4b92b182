import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureRegistry, type FixtureRegistry } from '../../e2e/fixtures/registry/fixture-registry';
import { FETCH_OCI_NAME, TIME_NAME, WEATHER_NAME } from '../../e2e/fixtures/registry/entries';
import type { ServerConfig } from '../../shared/domain/server';
import { RegistryCache } from './registry-cache';
import { RegistryClient } from './registry-client';
import { packageSourceKey } from '../../shared/domain/launch-confirm';
import { RegistryService } from './registry-service';
import { RegistrySources } from './registry-sources';

let dir: string;
let registry: FixtureRegistry;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-registry-service-'));
  registry = await startFixtureRegistry();
});
afterEach(async () => {
  await registry.close();
  await rm(dir, { recursive: true, force: true });
});

function service(launchPath: string, servers: Record<string, ServerConfig> = {}) {
  return new RegistryService({
    client: new RegistryClient({ timeoutMs: 5_000 }),
    cache: new RegistryCache(join(dir, 'cache'), () => undefined),
    sources: new RegistrySources(dir, registry.url, () => undefined),
    servers: () => servers,
    takenNames: () => Object.keys(servers),
    launchPath: async () => launchPath,
    cwd: dir,
  });
}

const request = (name: string, values: Record<string, string> = {}) => ({
  registry: registry.url,
  name,
  version: 'latest',
  option: 0,
  serverName: 'x',
  values,
});

describe('RegistryService listing', () => {
  it('lists the other entries when one has a 5 MiB description, and says one was left out', async () => {
    registry.publish({
      server: { name: 'io.github.berth-fixtures/huge', description: 'x'.repeat(5 * 1024 * 1024), version: '1.0.0' },
    });
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/after-huge',
        description: 'Listed after the huge one',
        version: '1.0.0',
      },
    });
    const page = await service('').search(registry.url, 'huge', undefined, 20);
    expect(page.fromCache).toBe(false);
    expect(page.servers.map((entry) => entry.name)).toEqual(['io.github.berth-fixtures/after-huge']);
    expect(page.skipped).toBe(1);
  });

  it('lists every version of an entry from the registry’s version list, the latest marked', async () => {
    const { versions } = await service('').versions(registry.url, WEATHER_NAME);
    expect(versions.map((version) => [version.version, version.isLatest, version.status])).toEqual([
      ['1.0.0', false, 'active'],
      ['1.1.0', true, 'active'],
    ]);
    expect(registry.requests.at(-1)).toBe(`/v0.1/servers/${encodeURIComponent(WEATHER_NAME)}/versions`);
    await expect(service('').versions(registry.url, 'io.github.nobody/nothing')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('shows what its publisher says to do after installing as text, line breaks kept and controls removed', async () => {
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/notes',
        description: 'Has instructions',
        version: '1.0.0',
        postInstallInstructions: 'Run `notes-mcp login` once.\r\nThen restart it.\u001b[2J\u202e',
      },
    });
    const { entry } = await service('').details(registry.url, 'io.github.berth-fixtures/notes', 'latest');
    expect(entry.postInstallInstructions).toBe('Run `notes-mcp login` once.\nThen restart it.[2J');
  });
});

describe('RegistryService review', () => {
  it('says how to get npx, uvx or docker when the launch PATH lacks it', async () => {
    const empty = join(dir, 'empty-bin');
    const registryService = service(empty);
    const npm = await registryService.review(request(WEATHER_NAME, { 'env:WEATHER_API_KEY': 'k' }));
    const pypi = await registryService.review(request(TIME_NAME));
    const oci = await registryService.review(request(FETCH_OCI_NAME));
    expect([npm, pypi, oci].map((review) => (review.ready ? review.plan.runtimeMissing : 'not ready'))).toEqual([
      'Install Node.js (it brings npx): https://nodejs.org',
      'Install uv (it brings uvx): https://docs.astral.sh/uv/getting-started/installation/',
      'Install Docker: https://docs.docker.com/get-started/get-docker/',
    ]);
    expect(oci.ready && oci.plan.args).toEqual([
      'run',
      '-i',
      '--rm',
      '-e',
      'FETCH_USER_AGENT',
      'docker.io/mcp/fetch:1.2.0',
    ]);
  });

  it('finds the runtime on the launch PATH and names the file it runs', async () => {
    const review = await service(process.env.PATH ?? '').review(request(WEATHER_NAME, { 'env:WEATHER_API_KEY': 'k' }));
    expect(review.ready && review.plan.resolvedCommand).toMatch(/npx$/);
    expect(review.ready && review.plan.runtimeMissing).toBeUndefined();
  });

  it('does not install a version its publisher deleted', async () => {
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/gone',
        description: 'Pulled',
        version: '1.0.0',
        packages: [{ registryType: 'npm', identifier: 'gone-mcp', version: '1.0.0', transport: { type: 'stdio' } }],
      },
      status: 'deleted',
    });
    const registryService = service('');
    const details = await registryService.details(registry.url, 'io.github.berth-fixtures/gone', 'latest');
    expect(details.entry.status).toBe('deleted');
    expect(details.entry.options[0]?.unsupported).toMatch(/deleted this version/);
    await expect(
      registryService.review({ ...request('io.github.berth-fixtures/gone'), serverName: 'gone' }),
    ).resolves.toEqual({
      ready: false,
      errors: [
        {
          field: 'option',
          message: expect.stringMatching(/deleted this version/),
          hostMessage: { code: 'registry-errors.deleted', params: {} },
        },
      ],
    });
  });

  it('flags a package from a registry other than its type’s public one, with the address, and not the public ones', async () => {
    const pkg = (registryType: string, identifier: string, registryBaseUrl?: string) => ({
      registryType,
      identifier,
      version: '1.0.0',
      transport: { type: 'stdio' },
      ...(registryBaseUrl === undefined ? {} : { registryBaseUrl }),
    });
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/elsewhere',
        description: 'Packages from several registries',
        version: '1.0.0',
        packages: [
          pkg('npm', 'srv', 'https://npm.evil.example/'),
          pkg('pypi', 'srv', 'https://pypi.org'),
          pkg('oci', 'quay.io/acme/srv'),
          pkg('oci', 'ghcr.io/acme/srv', 'https://ghcr.io'),
          pkg('npm', 'srv'),
        ],
      },
    });
    const registryService = service('');
    const sources = await Promise.all(
      [0, 1, 2, 3, 4].map(async (option) => {
        const review = await registryService.review({
          ...request('io.github.berth-fixtures/elsewhere'),
          option,
          serverName: `s${option}`,
        });
        return review.ready ? review.plan.packageSource : 'not ready';
      }),
    );
    expect(sources[0]).toEqual({
      url: 'https://npm.evil.example/',
      message: expect.stringMatching(
        /^The entry says this package comes from https:\/\/npm\.evil\.example\/, not the public npm registry\. Berth does not fetch from there: npx gets “srv” from the registry this computer is set up to use/,
      ),
      hostMessage: {
        code: 'registry-errors.package-source-base',
        params: { base: 'https://npm.evil.example/', registryType: 'npm', identifier: 'srv' },
      },
    });
    expect(sources[2]).toEqual({
      url: 'https://quay.io',
      message:
        'The image comes from quay.io, not Docker Hub or GitHub’s container registry: docker pulls it from there. Install it only if you trust quay.io.',
      hostMessage: { code: 'registry-errors.package-source-image', params: { host: 'quay.io' } },
    });
    expect([sources[1], sources[3], sources[4]]).toEqual([undefined, undefined, undefined]);
    // The host is the authority: without the source's own yes the install is refused and the review stays open.
    const evil = await registryService.review({
      ...request('io.github.berth-fixtures/elsewhere'),
      option: 0,
      serverName: 'evil',
    });
    if (!evil.ready) throw new Error('not ready');
    expect(registryService.takeReview(evil.reviewId)).toEqual({
      installed: false,
      errors: [
        {
          field: 'confirmed',
          message: 'Confirm where this package comes from (https://npm.evil.example/) before installing it',
          hostMessage: { code: 'registry-errors.confirm-source', params: { url: 'https://npm.evil.example/' } },
        },
      ],
    });
    expect(registryService.takeReview(evil.reviewId, undefined, ['source:https://other.example/'])).toMatchObject({
      installed: false,
    });
    expect(
      registryService.takeReview(evil.reviewId, undefined, [packageSourceKey('https://npm.evil.example/')]),
    ).toMatchObject({ installed: true, serverName: 'evil' });
  });

  it('starts a container’s review with the OS sandbox off and says why; npm and pypi with it on', async () => {
    const registryService = service('');
    const [npm, pypi, oci] = await Promise.all([
      registryService.review(request(WEATHER_NAME, { 'env:WEATHER_API_KEY': 'k' })),
      registryService.review(request(TIME_NAME)),
      registryService.review(request(FETCH_OCI_NAME)),
    ]);
    expect(npm.ready && npm.plan.sandboxDefault).toEqual({ enabled: true });
    expect(pypi.ready && pypi.plan.sandboxDefault).toEqual({ enabled: true });
    expect(oci.ready && oci.plan.sandboxDefault).toEqual({
      enabled: false,
      reason: expect.stringMatching(
        /^The OS sandbox is off: this server runs in its own container, which is its boundary/,
      ),
    });
    // Installing it sandboxed anyway is refused before anything is saved, and the review stays open.
    if (!oci.ready) throw new Error('not ready');
    expect(registryService.takeReview(oci.reviewId, { enabled: true })).toEqual({
      installed: false,
      errors: [
        {
          field: 'sandbox',
          message: expect.stringMatching(
            /^Turn the OS sandbox off for this server: docker servers run in their own container/,
          ),
          hostMessage: { code: 'registry-errors.sandbox-misfit', params: { reason: expect.any(String) } },
        },
      ],
    });
    expect(registryService.takeReview(oci.reviewId, { enabled: false })).toMatchObject({
      installed: true,
      config: { command: 'docker' },
    });
  });

  it('refuses a name already taken, and a review id it never gave', async () => {
    const taken = await service('', {
      x: {
        command: 'node',
        args: [],
        env: {},
        headers: {},
        secretHeaders: [],
        enabled: true,
        secretEnv: [],
        timeouts: { startupMs: 30_000, requestMs: 60_000, maxTotalMs: 600_000 },
        restart: { enabled: true, maxRestarts: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 },
      },
    }).review(request(TIME_NAME));
    expect(taken).toEqual({
      ready: false,
      errors: [
        {
          field: 'serverName',
          message: 'Berth already has a server named "x": choose another name',
          hostMessage: { code: 'registry-errors.name-taken', params: { name: 'x' } },
        },
      ],
    });
    expect(() => service('').takeReview('made-up')).toThrow(/no longer open/);
  });
});
