import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleInspection, BundleReview } from '../../shared/contract/bundles';
import { type ServerState } from '../../shared/domain/server';
import { serverTools } from '../../shared/domain/server-state-read';
import { SECRET_MASK } from '../../shared/domain/server';
import { buildGreeterBundle } from '../../e2e/fixtures/bundles/build-bundle';
import { hostPerTest, waitFor } from './host-harness';
import { validManifest, writeZip } from './zip-writer';

const SECRET = 'greeter-S3CRET-token-4411';
const NAME = 'Berth Greeter';
const REF = '${secret:server/Berth Greeter/env/GREETER_TOKEN}';

let work: string;
let bundlePath: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'berth-bundles-'));
  bundlePath = await buildGreeterBundle(work);
}, 120_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const world = hostPerTest('berth-bundles-host-');

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

describe('MCP Bundles through the host', () => {
  it('opens a real .mcpb, installs it after review, sees it ready with its secret in the store, and uninstalls it', async () => {
    const h = await world.start();
    const inspection = await h.call<BundleInspection>('bundles.inspect', {
      source: { kind: 'path', path: bundlePath },
    });
    expect(inspection.manifest).toMatchObject({
      name: 'berth-greeter',
      displayName: NAME,
      version: '1.0.0',
      serverType: 'node',
      author: { name: 'Berth tests' },
    });
    expect(inspection.manifest.tools.map((tool) => tool.name)).toEqual(['greet', 'token-length']);
    expect(inspection.manifest.prompts.map((prompt) => prompt.name)).toEqual(['welcome']);
    expect(inspection.signature).toEqual({ status: 'unsigned' });
    expect(inspection.suggestedName).toBe(NAME);
    expect(inspection.fields.map((field) => [field.key, field.sensitive, field.required])).toEqual([
      ['api_token', true, true],
      ['greeting', false, false],
    ]);
    // Nothing runs and nothing is configured until the install.
    expect(h.events.some((event) => event.topic === 'servers.changed')).toBe(false);

    const missing = await h.call<BundleReview>('bundles.review', {
      stageId: inspection.stageId,
      name: NAME,
      values: {},
    });
    const required = { code: 'bundle-errors.setting-required', params: { title: 'API token' } };
    expect(missing.problems).toEqual([
      { field: 'values.api_token', message: 'API token is required', hostMessage: required },
    ]);
    const refused = await h.host.dispatch('bundles.install', { stageId: inspection.stageId, name: NAME, values: {} });
    expect(refused).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
      message: 'API token is required',
      path: 'values.api_token',
      hostMessage: required,
    });

    const values = { api_token: SECRET, greeting: 'Ahoy' };
    const review = await h.call<BundleReview>('bundles.review', { stageId: inspection.stageId, name: NAME, values });
    const installPath = join(world.dir, 'bundles', 'berth-greeter', '1.0.0');
    expect(review).toMatchObject({
      command: 'node',
      args: [join(installPath, 'server', 'index.mjs'), '--greeting=Ahoy'],
      env: { GREETER_TOKEN: SECRET_MASK },
      secretEnvKeys: ['GREETER_TOKEN'],
      installPath,
      problems: [],
      runtime: { ok: true },
    });
    expect(review.runtime.message).toMatch(/^Node\.js found: /);
    expect(JSON.stringify(review)).not.toContain(SECRET);

    const state = await h.call<ServerState>('bundles.install', { stageId: inspection.stageId, name: NAME, values });
    expect(state.config.bundle).toEqual({ name: 'berth-greeter', version: '1.0.0', path: installPath });
    const ready = await h.waitForEvent(
      'servers.changed',
      (changed) => changed.name === NAME && changed.status === 'ready',
    );
    expect(
      serverTools(ready)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['greet', 'token-length']);

    // The token reached the server (its hash on stderr), through the environment only.
    const hash = createHash('sha256').update(SECRET).digest('hex').slice(0, 12);
    await waitFor(async () => JSON.stringify(await h.call('logs.query', { server: NAME, limit: 500 })).includes(hash));
    if (process.platform === 'linux' && ready.pid !== undefined)
      expect(await readFile(`/proc/${ready.pid}/cmdline`, 'utf8')).not.toContain(SECRET);
    const configText = await readFile(join(world.dir, 'config.json'), 'utf8');
    expect(configText).not.toContain(SECRET);
    const config = JSON.parse(configText) as {
      mcpServers: Record<string, { env: Record<string, string>; args: string[]; bundle: unknown }>;
    };
    expect(config.mcpServers[NAME]?.env).toEqual({ GREETER_TOKEN: REF });
    expect(config.mcpServers[NAME]?.bundle).toEqual({ name: 'berth-greeter', version: '1.0.0', path: installPath });
    expect(((await readJson(join(world.dir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets).toEqual({
      'server/Berth Greeter/env/GREETER_TOKEN': SECRET,
    });
    expect(existsSync(join(installPath, 'manifest.json'))).toBe(true);
    expect(await readdir(join(world.dir, 'bundles', '.staging'))).toEqual([]);

    await h.call('bundles.uninstall', { name: NAME });
    expect(existsSync(join(world.dir, 'bundles', 'berth-greeter'))).toBe(false);
    expect(((await readJson(join(world.dir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets).toEqual(
      {},
    );
    expect(
      ((await readJson(join(world.dir, 'config.json'))) as { mcpServers: Record<string, unknown> }).mcpServers,
    ).toEqual({});
  }, 90_000);

  it('refuses hostile and broken archives with the reason, leaving nothing behind', async () => {
    const h = await world.start();
    const manifest = { name: 'manifest.json', data: validManifest() };
    const cases: Array<{ what: string; archive: Buffer; reason: RegExp }> = [
      {
        what: 'zip-slip',
        archive: writeZip([manifest, { name: '../../escaped.txt', data: 'gotcha' }]),
        reason: /"\.\.\/\.\.\/escaped\.txt" points outside the bundle's folder \(zip-slip\)/,
      },
      {
        what: 'zip-slip (backslashes)',
        archive: writeZip([manifest, { name: 'server\\..\\..\\escaped.txt', data: 'gotcha' }]),
        reason: /zip-slip/,
      },
      {
        what: 'absolute path',
        archive: writeZip([manifest, { name: '/tmp/escaped.txt', data: 'gotcha' }]),
        reason: /is an absolute path/,
      },
      {
        what: 'symlink',
        archive: writeZip([manifest, { name: 'server/index.js', data: '/etc/passwd', mode: 0o120777 }]),
        reason: /"server\/index\.js" is a symbolic link: bundles may not contain links/,
      },
      {
        what: 'understated size',
        archive: writeZip([
          manifest,
          { name: 'big.bin', data: Buffer.alloc(200_000), deflate: true, declaredSize: 10 },
        ]),
        reason: /"big\.bin" unpacks to more than its header says \(10 bytes\)/,
      },
      {
        what: 'invalid manifest',
        archive: writeZip([{ name: 'manifest.json', data: validManifest({ author: 'nobody' }) }]),
        reason: /manifest\.json is invalid: author: Expected object, received string/,
      },
      {
        what: 'unknown manifest version',
        archive: writeZip([{ name: 'manifest.json', data: validManifest({ manifest_version: '9.9' }) }]),
        reason: /manifest_version "9\.9", which Berth does not know/,
      },
      {
        what: 'no manifest',
        archive: writeZip([{ name: 'server/index.js', data: '' }]),
        reason: /no manifest\.json at its top/,
      },
      { what: 'not a zip', archive: Buffer.from('just text, not an archive'), reason: /not a zip archive/ },
    ];
    for (const { what, archive, reason } of cases) {
      const path = join(world.dir, `${what.replace(/\W+/g, '-')}.mcpb`);
      await writeFile(path, archive);
      const result = await h.host.dispatch('bundles.inspect', { source: { kind: 'path', path } });
      expect(result.ok, what).toBe(false);
      if (!result.ok) expect(result.message, what).toMatch(reason);
      // The reason travels as a code too, so the dialog words it in the person's language.
      if (!result.ok) expect(result.hostMessage?.code, what).toMatch(/^bundle-errors\./);
    }
    expect(existsSync(join(world.dir, 'escaped.txt'))).toBe(false);
    expect(existsSync('/tmp/escaped.txt')).toBe(false);
    expect(await readdir(join(world.dir, 'bundles', '.staging'))).toEqual([]);
    expect((await readdir(join(world.dir, 'bundles'))).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('takes a bundle uploaded in chunks (browser mode has no file path), and refuses a sensitive setting on the command line', async () => {
    const h = await world.start();
    const bytes = await readFile(bundlePath);
    let upload: { uploadId: string; size: number } | undefined;
    for (let at = 0; at < bytes.length; at += 100_000) {
      const data = bytes.subarray(at, at + 100_000).toString('base64');
      upload = await h.call<{ uploadId: string; size: number }>(
        'bundles.upload',
        upload === undefined ? { data } : { uploadId: upload.uploadId, data },
      );
    }
    expect(upload?.size).toBe(bytes.length);
    const inspection = await h.call<BundleInspection>('bundles.inspect', {
      source: { kind: 'upload', uploadId: upload!.uploadId, fileName: 'greeter.mcpb' },
    });
    expect(inspection).toMatchObject({ fileName: 'greeter.mcpb', manifest: { name: 'berth-greeter' } });
    // The upload is used up: opening it again is a clear error.
    expect(
      await h.host.dispatch('bundles.inspect', { source: { kind: 'upload', uploadId: upload!.uploadId } }),
    ).toMatchObject({ ok: false, code: 'NOT_FOUND', hostMessage: { code: 'bundle-errors.upload-gone', params: {} } });

    const leaky = join(world.dir, 'leaky.mcpb');
    await writeFile(
      leaky,
      writeZip([
        {
          name: 'manifest.json',
          data: validManifest({
            server: {
              type: 'node',
              entry_point: 'server/index.js',
              mcp_config: { command: 'node', args: ['${__dirname}/server/index.js', '--token=${user_config.token}'] },
            },
            user_config: { token: { type: 'string', title: 'Token', description: 'A token', sensitive: true } },
          }),
        },
        { name: 'server/index.js', data: '' },
      ]),
    );
    const opened = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path: leaky } });
    const review = await h.call<BundleReview>('bundles.review', {
      stageId: opened.stageId,
      name: 'leaky',
      values: { token: 'abc' },
    });
    expect(review.problems[0]?.message).toMatch(/puts Token \(a sensitive setting\) on the command line/);
    expect(JSON.stringify(review)).not.toContain('abc');
    expect(
      await h.host.dispatch('bundles.install', { stageId: opened.stageId, name: 'leaky', values: { token: 'abc' } }),
    ).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  }, 60_000);

  it('updates an installed bundle in place: the new version runs, then the old folder goes', async () => {
    const h = await world.start();
    const newer = await buildGreeterBundle(world.dir, { manifest: { version: '1.1.0' } });
    const values = { api_token: SECRET };
    const first = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path: bundlePath } });
    await h.call('bundles.install', { stageId: first.stageId, name: NAME, values });
    await h.waitForEvent('servers.changed', (changed) => changed.name === NAME && changed.status === 'ready');
    const second = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path: newer } });
    expect(second.installed).toEqual([{ server: NAME, version: '1.0.0' }]);
    await h.call<ServerState>('bundles.install', { stageId: second.stageId, name: NAME, values });
    const config = (await readJson(join(world.dir, 'config.json'))) as {
      mcpServers: Record<string, { bundle: { version: string } }>;
    };
    expect(config.mcpServers[NAME]?.bundle.version).toBe('1.1.0');
    await h.waitForEvent(
      'servers.changed',
      (changed) => changed.name === NAME && changed.status === 'ready' && changed.config.bundle?.version === '1.1.0',
    );
    expect(existsSync(join(world.dir, 'bundles', 'berth-greeter', '1.1.0', 'manifest.json'))).toBe(true);
    expect(existsSync(join(world.dir, 'bundles', 'berth-greeter', '1.0.0'))).toBe(false);
    expect(((await readJson(join(world.dir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets).toEqual({
      'server/Berth Greeter/env/GREETER_TOKEN': SECRET,
    });
    // Another server cannot take over the same version's folder.
    const again = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path: newer } });
    expect(
      await h.host.dispatch('bundles.install', { stageId: again.stageId, name: 'second greeter', values }),
    ).toMatchObject({
      ok: false,
      code: 'CONFLICT',
      message: `berth-greeter 1.1.0 is already installed as "${NAME}": uninstall it first, or install a different version`,
    });
  }, 120_000);

  it('refuses a bundle whose signature does not verify (untrusted certificate or changed after signing)', async () => {
    const h = await world.start();
    const signing = await mkdtemp(join(tmpdir(), 'berth-sign-'));
    try {
      const signed = join(signing, 'signed.mcpb');
      await copyFile(bundlePath, signed);
      // A self-signed certificate: this system's trust store does not know it.
      await promisify(execFile)(
        join(process.cwd(), 'node_modules', '.bin', 'mcpb'),
        ['sign', signed, '--self-signed'],
        { cwd: signing },
      );
      const result = await h.host.dispatch('bundles.inspect', { source: { kind: 'path', path: signed } });
      expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
      if (!result.ok)
        expect(result.message).toMatch(
          /carries a signature that does not verify: it was changed after it was signed, or it was signed with a certificate this computer does not trust/,
        );
    } finally {
      await rm(signing, { recursive: true, force: true });
    }
    expect(await readdir(join(world.dir, 'bundles', '.staging'))).toEqual([]);
  }, 60_000);

  it('checks the runtime a bundle needs: its own executable, and the platforms it is made for', async () => {
    const h = await world.start();
    const binary = (mode: number, extra: Record<string, unknown> = {}) =>
      writeZip([
        {
          name: 'manifest.json',
          data: validManifest({
            server: { type: 'binary', entry_point: 'bin/server', mcp_config: { command: '${__dirname}/bin/server' } },
            ...extra,
          }),
        },
        { name: 'bin/server', data: '#!/bin/sh\nexit 0\n', mode },
      ]);
    const runtimeOf = async (archive: Buffer, file: string) => {
      await writeFile(join(world.dir, file), archive);
      const opened = await h.call<BundleInspection>('bundles.inspect', {
        source: { kind: 'path', path: join(world.dir, file) },
      });
      return (await h.call<BundleReview>('bundles.review', { stageId: opened.stageId, name: file, values: {} }))
        .runtime;
    };
    if (process.platform !== 'win32') {
      expect(await runtimeOf(binary(0o100755), 'exec.mcpb')).toEqual({
        ok: true,
        message: "Runs the bundle's own program, bin/server",
      });
      expect(await runtimeOf(binary(0o100644), 'plain.mcpb')).toEqual({
        ok: false,
        message:
          "The bundle's program bin/server is not executable: the bundle is incomplete: ask its author for a fixed one",
      });
    }
    const elsewhere = process.platform === 'win32' ? 'darwin' : 'win32';
    expect(
      await runtimeOf(binary(0o100755, { compatibility: { platforms: [elsewhere] } }), 'other.mcpb'),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/^This bundle is made for (Windows|macOS), not /) });
  });

  it('refuses to install a bundle whose env runs code until each flagged variable is confirmed', async () => {
    const h = await world.start();
    const archive = writeZip([
      {
        name: 'manifest.json',
        data: validManifest({
          server: {
            type: 'binary',
            entry_point: 'bin/server',
            mcp_config: {
              command: '${__dirname}/bin/server',
              env: { BASH_ENV: '$(touch /tmp/berth-bundle-bash-env)', LD_PRELOAD: '/tmp/x.so', GREETING: 'hi' },
            },
          },
        }),
      },
      { name: 'bin/server', data: '#!/bin/sh\nexit 0\n', mode: 0o100755 },
    ]);
    const path = join(world.dir, 'preloading.mcpb');
    await writeFile(path, archive);
    const opened = await h.call<BundleInspection>('bundles.inspect', { source: { kind: 'path', path } });
    const target = { stageId: opened.stageId, name: 'preloading', values: {} };
    const review = await h.call<BundleReview>('bundles.review', target);
    expect(review.warnings.map(({ kind, key, confirm }) => ({ kind, key, confirm }))).toEqual([
      { kind: 'env', key: 'BASH_ENV', confirm: true },
      { kind: 'env', key: 'LD_PRELOAD', confirm: true },
    ]);
    for (const confirmed of [undefined, ['BASH_ENV']]) {
      const refused = await h.host.dispatch('bundles.install', {
        ...target,
        ...(confirmed === undefined ? {} : { confirmed }),
      });
      expect(refused).toMatchObject({
        ok: false,
        code: 'INVALID_INPUT',
        path: 'confirmed',
        message: expect.stringContaining(confirmed === undefined ? '(BASH_ENV, LD_PRELOAD)' : '(LD_PRELOAD)'),
        hostMessage: {
          code: 'bundle-errors.unconfirmed',
          params:
            confirmed === undefined ? { names: 'BASH_ENV, LD_PRELOAD', count: 2 } : { names: 'LD_PRELOAD', count: 1 },
        },
      });
    }
    // Nothing was installed or moved: the staged bundle is still there for the confirmed install.
    expect(await h.call<ServerState[]>('servers.list', {})).toEqual([]);
    expect((await readdir(join(world.dir, 'bundles'))).filter((name) => !name.startsWith('.'))).toEqual([]);
    const state = await h.call<ServerState>('bundles.install', { ...target, confirmed: ['BASH_ENV', 'LD_PRELOAD'] });
    expect(state.config.env).toMatchObject({ LD_PRELOAD: '/tmp/x.so', GREETING: 'hi' });
    await h.call('servers.setEnabled', { name: 'preloading', enabled: false });
  });
});
