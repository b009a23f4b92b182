import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodOutput } from '../../shared/contract';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { startFixtureRegistry, type FixtureRegistry } from '../../e2e/fixtures/registry/fixture-registry';
import {
  ANALYTICS_REMOTE_NAME,
  EVERYTHING_NAME,
  EVERYTHING_VERSION,
  FETCH_OCI_NAME,
  LEGACY_SSE_NAME,
  TIME_NAME,
  WEATHER_NAME,
} from '../../e2e/fixtures/registry/entries';
import { hostPerTest, waitFor } from './host-harness';

type Search = MethodOutput<'registry.search'>;
type Details = MethodOutput<'registry.details'>;
type Review = MethodOutput<'registry.review'>;

let registry: FixtureRegistry;
const berth = hostPerTest('berth-registry-');

beforeEach(async () => {
  registry = await startFixtureRegistry();
});
afterEach(async () => {
  await registry.close();
});

const start = () => berth.start({ env: { ...process.env, BERTH_REGISTRY_URL: registry.url } });
const configFile = async () =>
  JSON.parse(await readFile(join(berth.dir, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };
const secretsFile = async () =>
  (JSON.parse(await readFile(join(berth.dir, 'secrets.json'), 'utf8')) as { secrets: Record<string, string> }).secrets;

describe('Discover against the fixture registry, through a real host', () => {
  it('uses the registry named by BERTH_REGISTRY_URL, searches by name and pages with the cursor', async () => {
    const host = await start();
    expect(await host.call('registry.sources', {})).toEqual({ registries: [registry.url] });
    const first = await host.call<Search>('registry.search', { registry: registry.url, query: 'sample', limit: 20 });
    expect(first.servers).toHaveLength(20);
    expect(first.fromCache).toBe(false);
    expect(first.nextCursor).toBeDefined();
    const second = await host.call<Search>('registry.search', {
      registry: registry.url,
      query: 'sample',
      limit: 20,
      cursor: first.nextCursor,
    });
    expect(second.servers).toHaveLength(6);
    expect(second.nextCursor).toBeUndefined();
    const names = new Set([...first.servers, ...second.servers].map((entry) => entry.name));
    expect(names.size).toBe(26);
    // Only latest versions are listed: weather has 1.0.0 and 1.1.0.
    const weather = await host.call<Search>('registry.search', { registry: registry.url, query: 'weather' });
    expect(weather.servers.map((entry) => `${entry.name}@${entry.version}`)).toEqual([`${WEATHER_NAME}@1.1.0`]);
    expect(registry.requests.at(-1)).toContain('version=latest');
  });

  it('shows details: links, status, and what each install option asks for', async () => {
    const host = await start();
    const weather = await host.call<Details>('registry.details', { registry: registry.url, name: WEATHER_NAME });
    expect(weather.entry.version).toBe('1.1.0');
    expect(weather.entry.repository?.url).toBe('https://github.com/berth-fixtures/weather-mcp');
    const option = weather.entry.options[0];
    expect(option).toMatchObject({ kind: 'package', registryType: 'npm', runtime: 'npx', transport: 'stdio' });
    expect(option?.fields.find((field) => field.id === 'env:WEATHER_API_KEY')).toMatchObject({
      required: true,
      secret: true,
    });
    expect(option?.fields.find((field) => field.id === 'arg:package:0')).toMatchObject({
      label: '--units',
      choices: ['metric', 'imperial'],
      default: 'metric',
    });
    const legacy = await host.call<Details>('registry.details', { registry: registry.url, name: LEGACY_SSE_NAME });
    expect(legacy.entry.status).toBe('deprecated');
    expect(legacy.entry.statusMessage).toContain('Replaced by');
    const missing = await host.host.dispatch('registry.details', {
      registry: registry.url,
      name: 'io.github.nobody/nothing',
    });
    expect(missing).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('installs the npm server-everything entry only after the review, and it starts and reaches ready', async () => {
    const host = await start();
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: EVERYTHING_NAME,
      option: 0,
      serverName: 'everything',
      values: {},
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    expect(review.plan).toMatchObject({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`],
      env: {},
    });
    expect(review.plan.resolvedCommand).toMatch(/npx$/);
    // Reviewing saved nothing and started nothing.
    expect(await host.call<ServerState[]>('servers.list', {})).toEqual([]);
    await expect(host.call('registry.install', { reviewId: review.reviewId })).resolves.toEqual({
      installed: true,
      server: 'everything',
    });
    const ready = await host.waitForEvent(
      'servers.changed',
      (state) => state.name === 'everything' && state.status === 'ready',
      60_000,
    );
    expect(serverTools(ready).length).toBeGreaterThan(0);
    expect((await configFile()).mcpServers.everything?.registry).toEqual({
      url: registry.url,
      name: EVERYTHING_NAME,
      version: EVERYTHING_VERSION,
      option: 0,
      values: {},
    });
    // A review is used once.
    await expect(host.host.dispatch('registry.install', { reviewId: review.reviewId })).resolves.toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      hostMessage: { code: 'registry-errors.review-gone', params: {} },
    });
    const details = await host.call<Details>('registry.details', { registry: registry.url, name: EVERYTHING_NAME });
    expect(details.installedAs).toEqual([{ server: 'everything', version: EVERYTHING_VERSION }]);
  }, 90_000);

  it('keeps a required secret in the secret store, then offers the newer version and updates keeping values and secrets', async () => {
    const host = await start();
    const base = { registry: registry.url, name: WEATHER_NAME, version: '1.0.0', option: 0, serverName: 'weather' };
    const incomplete = await host.call<Review>('registry.review', { ...base, values: {} });
    expect(incomplete).toEqual({
      ready: false,
      errors: [{ field: 'env:WEATHER_API_KEY', message: 'Enter WEATHER_API_KEY' }],
    });
    const review = await host.call<Review>('registry.review', {
      ...base,
      values: { 'env:WEATHER_API_KEY': 'wk-secret-123', 'arg:package:0': 'imperial', 'env:WEATHER_CITY': 'Oslo' },
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    expect(review.plan.env).toEqual({ WEATHER_API_KEY: '••••••••', WEATHER_CITY: 'Oslo' });
    expect(review.plan.args).toEqual(['-y', '@berth-fixtures/weather-mcp@1.0.0', '--units', 'imperial']);
    await host.call('registry.install', { reviewId: review.reviewId });
    // Not started by the test: the package does not exist, and its start would only fail.
    await host.call('servers.setEnabled', { name: 'weather', enabled: false });
    const text = await readFile(join(berth.dir, 'config.json'), 'utf8');
    expect(text).not.toContain('wk-secret-123');
    const installed = (await configFile()).mcpServers.weather as {
      env: Record<string, string>;
      registry: { values: Record<string, string> };
    };
    expect(installed.env.WEATHER_API_KEY).toMatch(/^\$\{secret:.+\}$/);
    expect(installed.registry.values).toEqual({ 'arg:package:0': 'imperial', 'env:WEATHER_CITY': 'Oslo' });
    expect(Object.values(await secretsFile())).toContain('wk-secret-123');

    const updates = await host.call<MethodOutput<'registry.updates'>>('registry.updates', {});
    expect(updates.updates).toEqual([
      { server: 'weather', registry: registry.url, name: WEATHER_NAME, installed: '1.0.0', latest: '1.1.0' },
    ]);
    await expect(host.call('registry.update', { server: 'weather' })).resolves.toEqual({
      server: 'weather',
      version: '1.1.0',
    });
    const updated = (await configFile()).mcpServers.weather as {
      args: string[];
      env: Record<string, string>;
      enabled: boolean;
      registry: { version: string };
    };
    expect(updated.args).toEqual(['-y', '@berth-fixtures/weather-mcp@1.1.0', '--units', 'imperial']);
    expect(updated.env).toEqual({ WEATHER_API_KEY: installed.env.WEATHER_API_KEY, WEATHER_CITY: 'Oslo' });
    expect(updated.enabled).toBe(false);
    expect(updated.registry.version).toBe('1.1.0');
    expect(Object.values(await secretsFile())).toContain('wk-secret-123');
    expect((await host.call<MethodOutput<'registry.updates'>>('registry.updates', {})).updates).toEqual([]);
  }, 60_000);

  it('lists the registry’s versions of an entry, and installs the one the person picks rather than the latest', async () => {
    const host = await start();
    const { versions } = await host.call<MethodOutput<'registry.versions'>>('registry.versions', {
      registry: registry.url,
      name: WEATHER_NAME,
    });
    expect(versions.map((version) => `${version.version}${version.isLatest ? ' latest' : ''}`)).toEqual([
      '1.0.0',
      '1.1.0 latest',
    ]);
    const picked = versions.find((version) => !version.isLatest)?.version ?? '';
    const details = await host.call<Details>('registry.details', {
      registry: registry.url,
      name: WEATHER_NAME,
      version: picked,
    });
    expect(details.entry.version).toBe('1.0.0');
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: WEATHER_NAME,
      version: details.entry.version,
      option: 0,
      serverName: 'weather-old',
      values: { 'env:WEATHER_API_KEY': 'k' },
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    expect(review.plan.args).toEqual(['-y', '@berth-fixtures/weather-mcp@1.0.0', '--units', 'metric']);
    await host.call('registry.install', { reviewId: review.reviewId, sandbox: { enabled: false } });
    // Not started by the test: the package does not exist, and its start would only fail.
    await host.call('servers.setEnabled', { name: 'weather-old', enabled: false });
    const saved = (await configFile()).mcpServers['weather-old'] as { args: string[]; registry: { version: string } };
    expect(saved.args).toContain('@berth-fixtures/weather-mcp@1.0.0');
    expect(saved.registry.version).toBe('1.0.0');
  }, 60_000);

  it('does not put a container server in the OS sandbox by default, says why, and refuses to save it sandboxed', async () => {
    const host = await start();
    const npm = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: TIME_NAME,
      option: 0,
      serverName: 'time',
      values: {},
    });
    expect(npm.ready && npm.plan.sandboxDefault).toEqual({ enabled: true });
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: FETCH_OCI_NAME,
      option: 0,
      serverName: 'fetch',
      values: {},
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    expect(review.plan.command).toBe('docker');
    expect(review.plan.sandboxDefault?.enabled).toBe(false);
    expect(review.plan.sandboxDefault?.reason).toMatch(
      /^The OS sandbox is off: this server runs in its own container, which is its boundary .* In the OS sandbox it could not start: docker servers run in their own container: the sandbox would block Docker's socket/,
    );
    const sandboxed = await host.call<MethodOutput<'registry.install'>>('registry.install', {
      reviewId: review.reviewId,
      sandbox: { enabled: true, allowedDomains: [] },
    });
    expect(sandboxed).toEqual({
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
    expect(await host.call<ServerState[]>('servers.list', {})).toEqual([]);
    // The same review, with the default the review showed: installed, and its sandbox setting is off.
    await expect(
      host.call('registry.install', {
        reviewId: review.reviewId,
        sandbox: { enabled: review.plan.sandboxDefault?.enabled ?? true },
      }),
    ).resolves.toEqual({ installed: true, server: 'fetch' });
    await host.call('servers.setEnabled', { name: 'fetch', enabled: false });
    const settings = await host.call<MethodOutput<'sandbox.serverSettings'>>('sandbox.serverSettings', {});
    expect(settings.find((view) => view.server === 'fetch')).toMatchObject({ enabled: false });
  }, 60_000);

  it('installs a remote entry with its URL variable and a secret header, which reaches the server on connect', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const remote = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolveListen) => remote.listen(0, '127.0.0.1', resolveListen));
    try {
      const port = (remote.address() as AddressInfo).port;
      registry.publish({
        server: {
          name: ANALYTICS_REMOTE_NAME,
          description: 'Analytics, served here for the test',
          version: '2.1.0',
          remotes: [
            {
              type: 'streamable-http',
              url: `http://127.0.0.1:${port}/{tenant}/mcp`,
              variables: { tenant: { description: 'Workspace', isRequired: true } },
              headers: [{ name: 'X-API-Key', isRequired: true, isSecret: true }],
            },
          ],
        },
      });
      const host = await start();
      const base = { registry: registry.url, name: ANALYTICS_REMOTE_NAME, option: 0, serverName: 'analytics' };
      const missing = await host.call<Review>('registry.review', { ...base, values: {} });
      expect(missing.ready).toBe(false);
      const review = await host.call<Review>('registry.review', {
        ...base,
        values: { 'url:var:tenant': 'acme', 'header:X-API-Key': 'ak-777' },
      });
      if (!review.ready) throw new Error(JSON.stringify(review.errors));
      expect(review.plan).toMatchObject({
        kind: 'remote',
        url: `http://127.0.0.1:${port}/acme/mcp`,
        transport: 'streamable-http',
        headerNames: ['X-API-Key'],
        secretHeaderNames: ['X-API-Key'],
      });
      // A loopback remote is this computer: installed only with its own yes.
      await host.call('registry.install', { reviewId: review.reviewId, confirmed: ['address:127.0.0.1'] });
      await waitFor(() => seen.length > 0, 30_000);
      expect(seen[0]?.['x-api-key']).toBe('ak-777');
      await host.call('servers.setEnabled', { name: 'analytics', enabled: false });
      const saved = (await configFile()).mcpServers.analytics as { headers: Record<string, string> };
      expect(saved.headers['X-API-Key']).toMatch(/^\$\{secret:.+\}$/);
    } finally {
      remote.closeAllConnections();
      await new Promise<void>((resolveClose) => remote.close(() => resolveClose()));
    }
  }, 60_000);

  it('refuses an install while a flagged variable is not confirmed, and installs once it is', async () => {
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/shell-env',
        description: 'server-everything with a BASH_ENV',
        version: '1.0.0',
        packages: [
          {
            registryType: 'npm',
            identifier: '@modelcontextprotocol/server-everything',
            version: EVERYTHING_VERSION,
            transport: { type: 'stdio' },
            environmentVariables: [{ name: 'BASH_ENV', value: '/dev/null' }],
          },
        ],
      },
    });
    const host = await start();
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: 'io.github.berth-fixtures/shell-env',
      option: 0,
      serverName: 'shell-env',
      values: {},
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    expect(review.plan.warnings).toContainEqual({
      kind: 'env',
      key: 'BASH_ENV',
      message: 'Sets BASH_ENV, which names a file every non-interactive bash runs first',
      confirm: true,
    });
    // The dialog's Install is only a button: the host itself refuses without the confirmation, and with the wrong one.
    for (const confirmed of [undefined, [], ['NODE_OPTIONS']]) {
      const refused = await host.call('registry.install', {
        reviewId: review.reviewId,
        ...(confirmed === undefined ? {} : { confirmed }),
      });
      expect(refused).toEqual({
        installed: false,
        errors: [
          {
            field: 'confirmed',
            message:
              'Confirm first what this server asks for that runs code or opens its walls (BASH_ENV): tick "I understand" for it in the review, then install again',
            hostMessage: {
              code: 'bundle-errors.unconfirmed',
              params: { names: 'BASH_ENV', count: 1, action: 'install' },
            },
          },
        ],
      });
    }
    expect(await host.call<ServerState[]>('servers.list', {})).toEqual([]);
    // The review stays open for the confirmed install.
    await expect(
      host.call('registry.install', { reviewId: review.reviewId, confirmed: ['BASH_ENV'] }),
    ).resolves.toEqual({ installed: true, server: 'shell-env' });
    expect((await configFile()).mcpServers['shell-env']?.env).toEqual({ BASH_ENV: '/dev/null' });
    await host.call('servers.setEnabled', { name: 'shell-env', enabled: false });
  }, 60_000);

  it.each([
    'http://0x7f.1:{port}/mcp',
    'https://[::ffff:127.0.0.1]:{port}/mcp',
    'https://2852039166/mcp',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://[fe80::1]/mcp',
    'https://10.0.0.8/mcp',
  ])(
    'flags a remote at %s before anything connects, and installs it only with its own yes',
    async (template) => {
      // Connections, not requests: a TLS hello to this plain server is a connection too.
      const seen: string[] = [];
      const local = createServer((_req, res) => res.writeHead(500).end());
      local.on('connection', (socket) => seen.push(socket.remoteAddress ?? ''));
      await new Promise<void>((resolveListen) => local.listen(0, '127.0.0.1', resolveListen));
      try {
        const port = (local.address() as AddressInfo).port;
        const url = template.replace('{port}', String(port));
        registry.publish({
          server: {
            name: 'io.github.berth-fixtures/inward',
            description: 'A remote on this side',
            version: '1.0.0',
            remotes: [{ type: 'streamable-http', url }],
          },
        });
        const host = await start();
        const review = await host.call<Review>('registry.review', {
          registry: registry.url,
          name: 'io.github.berth-fixtures/inward',
          option: 0,
          serverName: 'inward',
          values: {},
        });
        if (!review.ready) throw new Error(JSON.stringify(review.errors));
        const warning = review.plan.warnings.find((candidate) => candidate.kind === 'address');
        expect(warning).toMatchObject({ confirm: true, key: expect.stringMatching(/^address:/) });
        expect(warning?.message).toMatch(/this computer|metadata service|local link|private network/);
        const refused = await host.call<{ installed: boolean }>('registry.install', { reviewId: review.reviewId });
        expect(refused.installed).toBe(false);
        expect(await host.call<ServerState[]>('servers.list', {})).toEqual([]);
        await new Promise((resolveWait) => setTimeout(resolveWait, 300));
        expect(seen).toEqual([]);
        if (!template.includes('{port}')) return;
        // Confirmed, it is installed and connects: the refusal above was before any connection, not a failed one.
        await host.call('registry.install', { reviewId: review.reviewId, confirmed: [warning?.key ?? ''] });
        await waitFor(() => seen.length > 0, 30_000);
        await host.call('servers.setEnabled', { name: 'inward', enabled: false });
      } finally {
        local.closeAllConnections();
        await new Promise<void>((resolveClose) => local.close(() => resolveClose()));
      }
    },
    60_000,
  );

  it('does not update to a version that asks for a variable that runs code: that needs a review', async () => {
    const drift = (version: string, env: Array<{ name: string; value: string }>) => ({
      server: {
        name: 'io.github.berth-fixtures/drift',
        description: 'Grows a preload',
        version,
        packages: [
          {
            registryType: 'npm',
            identifier: 'drift-mcp',
            version,
            transport: { type: 'stdio' as const },
            environmentVariables: env,
          },
        ],
      },
    });
    registry.publish(drift('1.0.0', [{ name: 'LOG_LEVEL', value: 'info' }]));
    const host = await start();
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: 'io.github.berth-fixtures/drift',
      option: 0,
      serverName: 'drift',
      values: {},
    });
    if (!review.ready) throw new Error(JSON.stringify(review.errors));
    await host.call('registry.install', { reviewId: review.reviewId });
    // Not started by the test: the package does not exist.
    await host.call('servers.setEnabled', { name: 'drift', enabled: false });
    registry.publish(
      drift('1.1.0', [
        { name: 'LOG_LEVEL', value: 'info' },
        { name: 'NODE_OPTIONS', value: '--require /tmp/x.js' },
      ]),
    );
    const refused = await host.host.dispatch('registry.update', { server: 'drift' });
    expect(refused).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: expect.stringContaining(
        'Version 1.1.0 of io.github.berth-fixtures/drift asks for more than the installed one (Sets NODE_OPTIONS',
      ),
    });
    expect((await configFile()).mcpServers.drift?.env).toEqual({ LOG_LEVEL: 'info' });
  }, 60_000);

  it('refuses a plain-http remote in any spelling of a far address at the review', async () => {
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/metadata',
        description: 'The metadata service, spelled as one number',
        version: '1.0.0',
        remotes: [{ type: 'streamable-http', url: 'http://2852039166/latest/meta-data/' }],
      },
    });
    const host = await start();
    const review = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: 'io.github.berth-fixtures/metadata',
      option: 0,
      serverName: 'metadata',
      values: {},
    });
    expect(review).toEqual({
      ready: false,
      errors: [{ field: 'url', message: expect.stringContaining('Use https://') }],
    });
  });

  it('says where to get a missing runtime, flags env keys that load other code, and skips entries that do not fit', async () => {
    registry.publish({
      server: {
        name: 'io.github.berth-fixtures/preloaded',
        description: 'Sets NODE_OPTIONS for its process',
        version: '1.0.0',
        packages: [
          {
            registryType: 'npm',
            identifier: 'preloaded-mcp',
            version: '1.0.0',
            transport: { type: 'stdio' },
            environmentVariables: [{ name: 'NODE_OPTIONS', value: '--require ./hook.js' }],
          },
        ],
      },
    });
    registry.publish({ server: { name: 'not-a-registry-name', description: 'x', version: '1.0.0' } });
    registry.publish({
      server: { name: 'io.github.berth-fixtures/pre\u0007loud', description: 'y'.repeat(3_000), version: '1.0.0' },
    });
    const host = await start();
    const flagged = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: 'io.github.berth-fixtures/preloaded',
      option: 0,
      serverName: 'preloaded',
      values: {},
    });
    if (!flagged.ready) throw new Error(JSON.stringify(flagged.errors));
    expect(flagged.plan.env).toEqual({ NODE_OPTIONS: '--require ./hook.js' });
    expect(flagged.plan.warnings).toContainEqual(expect.objectContaining({ kind: 'env', key: 'NODE_OPTIONS' }));
    const python = await host.call<Review>('registry.review', {
      registry: registry.url,
      name: TIME_NAME,
      option: 0,
      serverName: 'time',
      values: {},
    });
    if (!python.ready) throw new Error(JSON.stringify(python.errors));
    expect(python.plan.args).toEqual(['mcp-server-time==0.6.2', '--local-timezone', 'UTC']);
    const listed = await host.call<Search>('registry.search', { registry: registry.url, query: 'pre' });
    expect(listed.servers.map((entry) => entry.name)).toEqual(['io.github.berth-fixtures/preloaded']);
    expect(listed.skipped).toBe(1);
    const everything = await host.call<Search>('registry.search', { registry: registry.url, query: '', limit: 100 });
    expect(everything.skipped).toBe(2);
    // Registries are the person's setting.
    await expect(
      host.call('registry.setSources', { registries: [`${registry.url}/`, 'https://registry.example.org'] }),
    ).resolves.toEqual({ registries: [registry.url, 'https://registry.example.org'] });
    expect(JSON.parse(await readFile(join(berth.dir, 'registries.json'), 'utf8'))).toEqual({
      registries: [registry.url, 'https://registry.example.org'],
    });
    await expect(
      host.host.dispatch('registry.setSources', { registries: ['ftp://example.org'] }),
    ).resolves.toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('answers from the cache with a clear notice when the registry is down, and says so when nothing is cached', async () => {
    const host = await start();
    const live = await host.call<Search>('registry.search', { registry: registry.url, query: 'time' });
    expect(live.servers.map((entry) => entry.title)).toEqual(['Time']);
    registry.setFailing(true);
    const cached = await host.call<Search>('registry.search', { registry: registry.url, query: 'time' });
    expect(cached.fromCache).toBe(true);
    expect(cached.fetchedAt).toBe(live.fetchedAt);
    expect(cached.servers).toEqual(live.servers);
    expect(cached.notice).toMatch(/answered 503: The registry is down for maintenance/);
    const never = await host.host.dispatch('registry.search', { registry: registry.url, query: 'never-asked' });
    expect(never).toMatchObject({
      ok: false,
      code: 'SERVER_ERROR',
      hostMessage: { code: 'registry-errors.unreachable', params: { detail: expect.stringContaining('answered 503') } },
    });
    expect(never.ok ? '' : never.message).toMatch(/nothing from it is cached yet/);
    await registry.close();
    const offline = await host.call<Search>('registry.search', { registry: registry.url, query: 'time' });
    expect(offline.notice).toMatch(/cannot reach 127\.0\.0\.1:\d+ \((connection refused|the connection was closed)\)/);
  });
});
