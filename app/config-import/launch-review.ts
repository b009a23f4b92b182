import { isAbsolute, relative, resolve } from 'node:path';
import type { ImportWarning } from '../../shared/contract/config-import';
import { launchRisks } from '../../shared/domain/launch-confirm';
import type { ServerConfig } from '../../shared/domain/server';
import { resolveExecutable } from '../servers/server-launch';

/** What the import preview says about what a stdio candidate would run. */
export interface LaunchReview {
  /** The absolute file the command runs, when it is found. */
  resolvedCommand?: string;
  warnings: ImportWarning[];
}

export interface LaunchReviewContext {
  /** The PATH servers are started with (the login shell's merged with Berth's); the config's own PATH wins over it. */
  launchPath: string | undefined;
  /** The folder servers without a `cwd` start in (Berth's own working directory). */
  defaultCwd: string;
  /** The project the file belongs to, when it is a project file (its `${workspaceFolder}`). */
  projectFolder?: string;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Which file a candidate's command resolves to, and what about it the person
 * should look at before running it: environment variables that load other
 * code (NODE_OPTIONS, LD_PRELOAD, PATH…) and docker options that open the
 * container, each needing its own yes (see launchRisks), a command that resolves inside the
 * imported project (or its working folder), a relative command path. `config`
 * has its placeholders filled where they can be.
 */
export async function reviewLaunch(config: ServerConfig, context: LaunchReviewContext): Promise<LaunchReview> {
  const warnings: ImportWarning[] = launchRisks({ command: config.command, args: config.args, env: config.env }).map(
    (risk) => ({ ...risk, confirm: true }),
  );
  const command = config.command;
  if (command === undefined) return { warnings };
  const placeholder = [command, config.cwd ?? '', config.env.PATH ?? ''].join('\n').match(/\$\{[^}]*\}/)?.[0];
  if (placeholder !== undefined) {
    warnings.push({
      kind: 'command',
      message: `Where the command is found depends on ${placeholder}: it is only known once that is filled in`,
    });
    return { warnings };
  }
  const cwd = config.cwd === undefined ? context.defaultCwd : resolve(context.defaultCwd, config.cwd);
  const searchPath = Object.prototype.hasOwnProperty.call(config.env, 'PATH') ? config.env.PATH : context.launchPath;
  const resolved = await resolveExecutable(command, searchPath, cwd);
  const isPath = /[\\/]/.test(command);
  if (resolved === undefined) {
    warnings.push({
      kind: 'command',
      message: `"${command}" is not found ${isPath ? `at that path (from ${cwd})` : 'on the PATH servers start with'}: the server cannot start until it is there`,
    });
    return { warnings };
  }
  const project = context.projectFolder ?? config.cwd;
  if (project !== undefined && inside(resolve(context.defaultCwd, project), resolved)) {
    const where = context.projectFolder !== undefined ? 'inside the imported project' : 'inside its working folder';
    warnings.push({
      kind: 'command',
      message: `The command resolves to ${resolved}, ${where}: the project's files decide what runs`,
    });
  } else if (isPath && !isAbsolute(command)) {
    warnings.push({ kind: 'command', message: `The command is a path relative to the working folder (${cwd})` });
  }
  return { resolvedCommand: resolved, warnings };
}
