import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodOutput } from '../../shared/contract';
import type { BundleInspection, BundleReview } from '../../shared/contract/bundles';
import type { ImportWarning } from '../../shared/contract/config-import';
import { startFixtureRegistry, type FixtureRegistry } from '../../e2e/fixtures/registry/fixture-registry';
import { sandboxSkipReason } from './sandbox-harness';
import { firedMarkers, markerTraces, plantEnvMarkers, type EnvMarkers } from './sandbox-markers';
import { hostPerTest, type HostHarness } from './host-harness';
import { validManifest, writeZip } from './zip-writer';

/** The keys of what a review flagged for its own yes: what the person confirms by ticking the box. */
function flaggedKeys(warnings: readonly ImportWarning[]): string[] {
  return warnings.flatMap((warning) => (warning.confirm === true && warning.key !== undefined ? [warning.key] : []));
}

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[host-sandbox-env-sources] skipped: ${skipReason}`);

const SERVERS = resolve(__dirname, '../../e2e/fixtures/servers');

/**
 * The markers of sandbox-markers.ts arriving the ways an untrusted config
 * does — a registry entry's environment variables, a bundle's
 * `mcp_config.env` — installed through a real host with the sandbox on:
 * none fires outside the sandbox, and each reaches the server inside.
 */
describe.skipIf(skipReason !== undefined)(
  "a server's env from a registry entry or a bundle, with the sandbox on",
  () => {
    const world = hostPerTest('berth-sandbox-env-sources-');
    let outside: string;
    let markers: EnvMarkers;

    beforeEach(async () => {
      // Apart from Berth's folder: the sandbox can write none of it.
      outside = await mkdtemp(join(tmpdir(), 'berth-env-markers-'));
      markers = await plantEnvMarkers(outside);
    });

    afterEach(async () => {
      await rm(outside, { recursive: true, force: true });
    });

    async function expectNothingFiredOutside(h: HostHarness, server: string): Promise<void> {
      const settled = await h.waitForEvent(
        'servers.changed',
        (state) => state.name === server && ['ready', 'error', 'crashed'].includes(state.status),
        60_000,
      );
      // Whether it started or not, its wrapper ran: a marker it fired outside is there now.
      expect(await firedMarkers(markers)).toEqual([]);
      expect(settled.status, settled.reason).toBe('ready');
      const { entries } = await h.call<{ entries: Array<{ text: string }> }>('logs.query', { server, limit: 500 });
      expect(entries.some((entry) => entry.text.startsWith('runs in the sandbox'))).toBe(true);
      expect(settled.pid).toBeGreaterThan(0);
      const traces = await markerTraces(markers, settled.pid as number);
      expect(traces.fired).toEqual([]);
      expect(traces.outsideLoaded).toEqual([]);
      expect(traces.outsideCount).toBeGreaterThan(0);
      expect(traces.insideLoaded).toBe(true);
    }

    describe('from a registry entry', () => {
      let registry: FixtureRegistry;
      beforeEach(async () => {
        registry = await startFixtureRegistry();
      });
      afterEach(async () => {
        await registry.close();
      });

      it('runs none of BASH_ENV, ENV, LD_PRELOAD, LD_LIBRARY_PATH, NODE_OPTIONS, PYTHONSTARTUP outside the sandbox', async () => {
        // The entry's own PATH leads `npx` to a stand-in that runs our probe: no network needed, and a PATH set by an entry is one more way in.
        const bin = join(outside, 'bin');
        await mkdir(bin);
        await writeFile(
          join(bin, 'npx'),
          `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(SERVERS, 'env-probe.mjs'))}\n`,
        );
        await chmod(join(bin, 'npx'), 0o755);
        const env = { ...markers.env, PATH: `${bin}:/usr/bin:/bin` };
        registry.publish({
          server: {
            name: 'io.github.berth-fixtures/env-markers',
            description: 'Sets variables that run code in shells, the loader, Node and Python',
            version: '1.0.0',
            packages: [
              {
                registryType: 'npm',
                identifier: 'env-markers-mcp',
                version: '1.0.0',
                transport: { type: 'stdio' },
                environmentVariables: Object.entries(env).map(([name, value]) => ({ name, value })),
              },
            ],
          },
        });
        const h = await world.start({ env: { ...process.env, BERTH_REGISTRY_URL: registry.url } });
        const review = await h.call<MethodOutput<'registry.review'>>('registry.review', {
          registry: registry.url,
          name: 'io.github.berth-fixtures/env-markers',
          option: 0,
          serverName: 'markers',
          values: {},
        });
        if (!review.ready) throw new Error(JSON.stringify(review.errors));
        expect(review.plan.env).toEqual(env);
        // The person confirms what the review flagged (each variable that runs code needs its own yes).
        const confirmed = flaggedKeys(review.plan.warnings);
        expect(confirmed).toEqual(expect.arrayContaining(['BASH_ENV', 'LD_PRELOAD', 'NODE_OPTIONS']));
        await h.call('registry.install', { reviewId: review.reviewId, sandbox: { enabled: true }, confirmed });
        await expectNothingFiredOutside(h, 'markers');
      }, 90_000);
    });

    describe('from a bundle', () => {
      it("runs none of its mcp_config.env's BASH_ENV, ENV, LD_PRELOAD, LD_LIBRARY_PATH, NODE_OPTIONS, PYTHONSTARTUP outside the sandbox", async () => {
        const manifest = validManifest({
          name: 'env-markers',
          server: {
            type: 'node',
            entry_point: 'server/env-probe.mjs',
            mcp_config: { command: process.execPath, args: ['${__dirname}/server/env-probe.mjs'], env: markers.env },
          },
        });
        const archive = writeZip([
          { name: 'manifest.json', data: manifest },
          { name: 'server/env-probe.mjs', data: await readFile(join(SERVERS, 'env-probe.mjs')) },
          { name: 'server/raw-jsonrpc.mjs', data: await readFile(join(SERVERS, 'raw-jsonrpc.mjs')) },
        ]);
        const path = join(outside, 'env-markers.mcpb');
        await writeFile(path, archive);
        const h = await world.start();
        const inspection = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path } });
        const review = await h.call<BundleReview>('bundles.review', {
          stageId: inspection.stageId,
          name: 'markers',
          values: {},
        });
        const confirmed = flaggedKeys(review.warnings);
        expect(confirmed).toEqual(expect.arrayContaining(['BASH_ENV', 'LD_PRELOAD', 'NODE_OPTIONS']));
        await h.call('bundles.install', {
          stageId: inspection.stageId,
          name: 'markers',
          values: {},
          sandbox: { enabled: true },
          confirmed,
        });
        await expectNothingFiredOutside(h, 'markers');
      }, 90_000);
    });
  },
);
