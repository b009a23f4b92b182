import { join, delimiter, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BundleField } from '../../shared/contract/bundles';
import { SECRET_MASK } from '../../shared/domain/server';
import { buildLaunch } from './bundle-launch';
import type { BundleManifest } from './bundle-manifest';

function manifest(server: Record<string, unknown>): BundleManifest {
  return {
    manifest_version: '0.3',
    name: 'm',
    version: '1.0.0',
    description: 'd',
    author: { name: 'a' },
    server,
  } as unknown as BundleManifest;
}

const field = (key: string, extra: Partial<BundleField> = {}): BundleField => ({
  key,
  type: 'string',
  title: key,
  description: '',
  required: false,
  sensitive: false,
  multiple: false,
  ...extra,
});
const variables = { bundleDir: '/data/bundles/m/1.0.0', home: '/home/ann', platform: 'linux' as const };

describe('buildLaunch', () => {
  it('fills the spec variables and settings in one pass; a list argument becomes one argument per item', () => {
    const launch = buildLaunch(
      manifest({
        type: 'node',
        entry_point: 'server/index.js',
        mcp_config: {
          command: 'node',
          args: [
            '${__dirname}/server/index.js',
            '${user_config.dirs}',
            '--docs=${DOCUMENTS}${pathSeparator}x',
            '${user_config.unset}',
            '--name=${user_config.name}',
          ],
          env: { DIRS: '${user_config.dirs}', HOME_DIR: '${HOME}', KEEP: '${NOT_A_VARIABLE}' },
        },
      }),
      [field('dirs', { multiple: true, type: 'directory' }), field('unset'), field('name')],
      new Map<string, string | string[]>([
        ['dirs', ['/a', '/b']],
        ['name', '${__dirname}'],
      ]),
      variables,
    );
    expect(launch.command).toBe('node');
    expect(launch.args).toEqual([
      '/data/bundles/m/1.0.0/server/index.js',
      '/a',
      '/b',
      `--docs=${join('/home/ann', 'Documents')}${sep}x`,
      '--name=${__dirname}',
    ]);
    expect(launch.env).toEqual({ DIRS: `/a${delimiter}/b`, HOME_DIR: '/home/ann', KEEP: '${NOT_A_VARIABLE}' });
    expect(launch.problems).toEqual([]);
  });

  it('uses the platform override and the type default when mcp_config is absent', () => {
    const overridden = buildLaunch(
      manifest({
        type: 'binary',
        entry_point: 'bin/s',
        mcp_config: {
          command: '${__dirname}/bin/s',
          args: ['a'],
          platform_overrides: { linux: { command: '${__dirname}/bin/s-linux' } },
        },
      }),
      [],
      new Map(),
      variables,
    );
    expect(overridden).toMatchObject({ command: '/data/bundles/m/1.0.0/bin/s-linux', args: ['a'] });
    expect(buildLaunch(manifest({ type: 'python', entry_point: 'main.py' }), [], new Map(), variables)).toMatchObject({
      command: 'python3',
      args: ['/data/bundles/m/1.0.0/main.py'],
    });
  });

  it('marks env values that hold a sensitive setting, and refuses one on the command line (shown masked)', () => {
    const launch = buildLaunch(
      manifest({
        type: 'node',
        entry_point: 'i.js',
        mcp_config: {
          command: 'node',
          args: ['--key=${user_config.key}', '${user_config.key}'],
          env: { AUTH: 'Bearer ${user_config.key}', PLAIN: '${user_config.plain}' },
        },
      }),
      [field('key', { sensitive: true, title: 'API key' }), field('plain')],
      new Map([
        ['key', 'sk-123'],
        ['plain', 'p'],
      ]),
      variables,
    );
    expect(launch.secretEnv).toEqual(['AUTH']);
    expect(launch.env).toEqual({ AUTH: 'Bearer sk-123', PLAIN: 'p' });
    expect(launch.args).toEqual([`--key=${SECRET_MASK}`, SECRET_MASK]);
    expect(launch.problems.map((problem) => problem.field)).toEqual(['values.key', 'values.key']);
    expect(launch.problems[0]?.message).toContain('API key (a sensitive setting) on the command line');
  });
});
