import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '../../shared/domain/server';
import { reviewLaunch } from './launch-review';

let dir: string;
let project: string;
let system: string;

async function executable(path: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o755);
  return path;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-launch-review-'));
  project = join(dir, 'project');
  system = join(dir, 'usr-bin');
  await executable(join(system, 'node'));
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = (input: Record<string, unknown>) => ServerConfigSchema.parse(input);

describe('reviewLaunch', () => {
  it('resolves a command name on the launch PATH to its absolute file, with nothing to flag', async () => {
    const review = await reviewLaunch(config({ command: 'node', args: ['server.js'] }), {
      launchPath: system,
      defaultCwd: dir,
      projectFolder: project,
    });
    expect(review).toEqual({ resolvedCommand: join(system, 'node'), warnings: [] });
  });

  it('flags a PATH that puts a project folder first, and the command found there', async () => {
    const local = await executable(join(project, 'bin', 'node'));
    const review = await reviewLaunch(
      config({
        command: 'node',
        cwd: project,
        env: { PATH: `./bin:${system}`, NODE_OPTIONS: '--require ./hook.js', LOG: 'x' },
      }),
      {
        launchPath: system,
        defaultCwd: dir,
        projectFolder: project,
      },
    );
    expect(review.resolvedCommand).toBe(local);
    expect(review.warnings).toEqual([
      {
        kind: 'env',
        key: 'PATH',
        message: 'Sets PATH, which decides which program a command name runs',
        confirm: true,
      },
      {
        kind: 'env',
        key: 'NODE_OPTIONS',
        message: 'Sets NODE_OPTIONS, which can make Node.js load any file first (--require, --import)',
        confirm: true,
      },
      {
        kind: 'command',
        message: `The command resolves to ${local}, inside the imported project: the project's files decide what runs`,
      },
    ]);
  });

  it('flags LD_PRELOAD and a relative command inside the working folder when the project is not known (pasted text)', async () => {
    const tool = await executable(join(project, 'tools', 'mcp'));
    const review = await reviewLaunch(
      config({ command: './tools/mcp', cwd: project, env: { LD_PRELOAD: '/tmp/x.so' } }),
      { launchPath: system, defaultCwd: dir },
    );
    expect(review.resolvedCommand).toBe(tool);
    expect(review.warnings.map((warning) => warning.message)).toEqual([
      'Sets LD_PRELOAD, which changes which libraries every program loads (the dynamic linker)',
      `The command resolves to ${tool}, inside its working folder: the project's files decide what runs`,
    ]);
  });

  it('flags docker options that open the container, each to be confirmed by its own key', async () => {
    await executable(join(system, 'docker'));
    const review = await reviewLaunch(
      config({
        command: 'docker',
        args: ['run', '-i', '--rm', '--network=host', '-v', '/:/host', 'img:1', '--privileged'],
        env: { BASH_ENV: '/tmp/x' },
      }),
      { launchPath: system, defaultCwd: dir },
    );
    expect(review.warnings.map(({ kind, key, confirm }) => ({ kind, key, confirm }))).toEqual([
      { kind: 'env', key: 'BASH_ENV', confirm: true },
      { kind: 'docker', key: 'docker:--network=host', confirm: true },
      { kind: 'docker', key: 'docker:-v /:/host', confirm: true },
    ]);
  });

  it('says when the command is not found, or depends on a value not known yet', async () => {
    const missing = await reviewLaunch(config({ command: 'uvx' }), { launchPath: system, defaultCwd: dir });
    expect(missing).toEqual({
      warnings: [
        {
          kind: 'command',
          message: '"uvx" is not found on the PATH servers start with: the server cannot start until it is there',
        },
      ],
    });
    const later = await reviewLaunch(config({ command: 'node', env: { PATH: '${workspaceFolder}/bin' } }), {
      launchPath: system,
      defaultCwd: dir,
    });
    expect(later.resolvedCommand).toBeUndefined();
    expect(later.warnings.at(-1)?.message).toBe(
      'Where the command is found depends on ${workspaceFolder}: it is only known once that is filled in',
    );
  });
});
