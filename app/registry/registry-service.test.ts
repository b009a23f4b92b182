import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureRegistry, type FixtureRegistry } from '../../e2e/fixtures/registry/fixture-registry';
import { FETCH_OCI_NAME, TIME_NAME, WEATHER_NAME } from '../../e2e/fixtures/registry/entries';
import type { ServerConfig } from '../../shared/domain/server';
import { RegistryCache } from './registry-cache';
import { RegistryClient } from './registry-client';
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

const request = (name: string, values: Record<string, string> = {}) => ({ registry: registry.url, name, version: 'latest', option: 0, serverName: 'x', values });

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
    expect(oci.ready && oci.plan.args).toEqual(['run', '-i', '--rm', '-e', 'FETCH_USER_AGENT', 'docker.io/mcp/fetch:1.2.0']);
  });

  it('finds the runtime on the launch PATH and names the file it runs', async () => {
    const review = await service(process.env.PATH ?? '').review(request(WEATHER_NAME, { 'env:WEATHER_API_KEY': 'k' }));
    expect(review.ready && review.plan.resolvedCommand).toMatch(/npx$/);
    expect(review.ready && review.plan.runtimeMissing).toBeUndefined();
  });

  it('does not install a version its publisher deleted', async () => {
    registry.publish({ server: { name: 'io.github.berth-fixtures/gone', description: 'Pulled', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'gone-mcp', version: '1.0.0', transport: { type: 'stdio' } }] }, status: 'deleted' });
    const registryService = service('');
    const details = await registryService.details(registry.url, 'io.github.berth-fixtures/gone', 'latest');
    expect(details.entry.status).toBe('deleted');
    expect(details.entry.options[0]?.unsupported).toMatch(/deleted this version/);
    await expect(registryService.review({ ...request('io.github.berth-fixtures/gone'), serverName: 'gone' })).resolves.toEqual({ ready: false, errors: [{ field: 'option', message: expect.stringMatching(/deleted this version/) }] });
  });

  it('refuses a name already taken, and a review id it never gave', async () => {
    const taken = await service('', { x: { command: 'node', args: [], env: {}, headers: {}, secretHeaders: [], enabled: true, secretEnv: [], timeouts: { startupMs: 30_000, requestMs: 60_000, maxTotalMs: 600_000 }, restart: { enabled: true, maxRestarts: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 } } }).review(
      request(TIME_NAME),
    );
    expect(taken).toEqual({ ready: false, errors: [{ field: 'serverName', message: 'Berth already has a server named "x": choose another name' }] });
    expect(() => service('').takeReview('made-up')).toThrow(/no longer open/);
  });
});
