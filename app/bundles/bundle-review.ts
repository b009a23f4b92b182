import { constants } from 'node:fs';
import { bundleError } from '../../shared/domain/bundle-errors';
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleReview } from '../../shared/contract/bundles';
import { SECRET_MASK, ServerConfigSchema } from '../../shared/domain/server';
import { reviewLaunch } from '../config-import/launch-review';
import type { BundleManifest } from './bundle-manifest';
import type { BundleLaunch } from './bundle-launch';
import { BundleRefused } from './bundle-refused';

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** What each server type needs, said so a person can get it. */
const RUNTIME_HELP: Record<string, { name: string; fix: string }> = {
  node: { name: 'Node.js', fix: 'install Node.js (https://nodejs.org) and open the bundle again' },
  python: { name: 'Python', fix: 'install Python 3 (https://www.python.org) and open the bundle again' },
  uv: { name: 'uv', fix: 'install uv (https://docs.astral.sh/uv/) and open the bundle again' },
  binary: { name: "the bundle's own program", fix: 'the bundle is incomplete: ask its author for a fixed one' },
};

export interface ReviewInput {
  manifest: BundleManifest;
  name: string;
  /** The launch with `${__dirname}` = where it will be installed (what is shown and saved). */
  shown: BundleLaunch;
  /** The same launch with `${__dirname}` = the staging folder (what exists now, to check). */
  staged: BundleLaunch;
  installPath: string;
  stagedPath: string;
  launchPath: string | undefined;
  defaultCwd: string;
  platform: NodeJS.Platform;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isExecutable(path: string, platform: NodeJS.Platform): Promise<boolean> {
  if (platform === 'win32') return true;
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The launch review for a bundle: the same check an import gets (where the
 * command resolves, env keys that load other code), run against the staged
 * files and shown with the install path, plus the runtime the server type
 * needs: Node or Python or uv on the PATH servers start with, or the bundle's
 * own executable; and the platforms the manifest says it runs on.
 */
export async function reviewBundle(input: ReviewInput): Promise<BundleReview> {
  const { manifest, shown, staged, platform } = input;
  const swap = (text: string): string => text.split(input.stagedPath).join(input.installPath);
  const parsed = ServerConfigSchema.safeParse({ command: staged.command, args: staged.args, env: staged.env });
  if (!parsed.success) {
    throw new BundleRefused(
      bundleError('bundle-errors.settings-unusable', {
        detail: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      }),
    );
  }
  const config = parsed.data;
  const launch = await reviewLaunch(config, { launchPath: input.launchPath, defaultCwd: input.defaultCwd });
  const type = manifest.server.type;
  const help = RUNTIME_HELP[type]!;
  let runtime: BundleReview['runtime'];
  const platforms = manifest.compatibility?.platforms;
  const entry = join(input.stagedPath, ...manifest.server.entry_point.split(/[\\/]/));
  if (
    platforms !== undefined &&
    platforms.length > 0 &&
    !platforms.includes(platform as 'darwin' | 'win32' | 'linux')
  ) {
    const names = platforms.map((name) => PLATFORM_NAMES[name] ?? name).join(' and ');
    runtime = { ok: false, message: `This bundle is made for ${names}, not ${PLATFORM_NAMES[platform] ?? platform}` };
  } else if (type === 'binary' && (await isFile(entry)) && !(await isExecutable(entry, platform))) {
    runtime = {
      ok: false,
      message: `The bundle's program ${manifest.server.entry_point} is not executable: ${RUNTIME_HELP.binary!.fix}`,
    };
  } else if (launch.resolvedCommand === undefined) {
    runtime = {
      ok: false,
      message: `"${swap(shown.command)}" is not found${type === 'binary' ? ' in the bundle' : ' on the PATH servers start with'}: ${help.fix}`,
    };
  } else if (!(await isFile(entry))) {
    runtime = {
      ok: false,
      message: `The bundle's entry point ${manifest.server.entry_point} is missing from the archive: ${RUNTIME_HELP.binary!.fix}`,
    };
  } else {
    runtime = {
      ok: true,
      message:
        type === 'binary'
          ? `Runs the bundle's own program, ${manifest.server.entry_point}`
          : `${help.name} found: ${swap(launch.resolvedCommand)}`,
    };
  }
  const secret = new Set(shown.secretEnv);
  const review: BundleReview = {
    name: input.name,
    command: shown.command,
    args: [...shown.args],
    env: Object.fromEntries(
      Object.entries(shown.env).map(([key, value]) => [key, secret.has(key) ? SECRET_MASK : value]),
    ),
    secretEnvKeys: [...shown.secretEnv],
    installPath: input.installPath,
    runtime,
    // A binary bundle's command is inside its own folder by design: that is what the person is installing.
    warnings: launch.warnings
      .filter((warning) => warning.confirm === true)
      .map((warning) => ({ ...warning, message: swap(warning.message) })),
    problems: [...shown.problems],
  };
  if (launch.resolvedCommand !== undefined) review.resolvedCommand = swap(launch.resolvedCommand);
  return review;
}
