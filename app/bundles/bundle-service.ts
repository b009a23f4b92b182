import { access, rename, rm, rmdir } from 'node:fs/promises';
import { bundleError } from '../../shared/domain/bundle-errors';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type {
  BundleField,
  BundleInspection,
  BundleReview,
  BundleSource,
  BundleValues,
} from '../../shared/contract/bundles';
import { unconfirmedWords } from '../../shared/domain/launch-confirm';
import { ServerConfigSchema, type ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { makePrivateDir } from '../config/private-files';
import { uniqueServerName } from '../config-import/server-names';
import { buildLaunch, fillSystemVariables, type BundleLaunch } from './bundle-launch';
import {
  MAX_MANIFEST_BYTES,
  manifestFields,
  manifestView,
  parseManifest,
  type BundleManifest,
} from './bundle-manifest';
import { BundleRefused } from './bundle-refused';
import { reviewBundle } from './bundle-review';
import { checkSignature } from './bundle-signature';
import { BundleStaging } from './bundle-staging';
import { checkValues } from './bundle-values';
import { DEFAULT_EXTRACT_LIMITS, extractZip, readTopLevelFile, type ExtractLimits } from './zip-extract';

export interface BundleServiceOptions {
  /** `<config dir>/bundles`: one folder per bundle name, one per version inside. */
  bundlesDir: string;
  home: string;
  platform: NodeJS.Platform;
  /** The PATH servers start with, to find node, python3, uv. */
  launchPath: () => Promise<string | undefined>;
  cwd: string;
  /** Every configured server, unmasked (which came from which bundle). */
  servers: () => Record<string, ServerConfig>;
  /** Every name in use, including servers still running from a broken entry. */
  takenNames: () => string[];
  limits?: ExtractLimits;
  maxFileBytes?: number;
}

interface Stage {
  id: string;
  dir: string;
  files: string;
  manifest: BundleManifest;
  fields: BundleField[];
}

/** A bundle moved into place for an install: keep it once the server is saved, or put it back. */
export interface PreparedInstall {
  config: ServerConfig;
  /** The server this install updates (same name, same bundle), if any. */
  updates?: string;
  /** The server's config is saved: drop the stage and the folder of the version it replaced. */
  commit(): Promise<void>;
  /** Saving failed: the new folder goes back to staging, the old one back into place. */
  rollback(): Promise<void>;
}

/** A file or folder name from a manifest's name or version: nothing that could leave the bundles folder. */
function folderName(text: string): string {
  const name = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 100);
  return name === '' ? 'bundle' : name;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * MCP Bundles: open (validate, check the signature, extract safely into
 * staging), review (the exact command with the person's settings), install
 * (one rename into `<bundles>/<name>/<version>`, then the server is added by
 * the caller) and remove the folder of an uninstalled server.
 */
export class BundleService {
  private readonly staging: BundleStaging;
  private readonly stages = new Map<string, Stage>();
  private readonly limits: ExtractLimits;
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly options: BundleServiceOptions) {
    this.staging = new BundleStaging(options.bundlesDir, options.maxFileBytes);
    this.limits = options.limits ?? DEFAULT_EXTRACT_LIMITS;
  }

  /** Empties the working areas (nothing staged survives a restart). */
  start(): Promise<void> {
    this.ready = this.staging.reset();
    return this.ready;
  }

  async upload(uploadId: string | undefined, base64: string): Promise<{ uploadId: string; size: number }> {
    await this.ready.catch(() => undefined);
    return this.staging.upload(uploadId, Buffer.from(base64, 'base64'));
  }

  async inspect(source: BundleSource): Promise<BundleInspection> {
    await this.ready.catch(() => undefined);
    if (source.kind === 'path' && !isAbsolute(source.path))
      throw HostError.coded(
        'INVALID_INPUT',
        bundleError('bundle-errors.full-path', { path: source.path }),
        'source.path',
      );
    const staged = await this.staging.stage(source);
    try {
      const { signature, archive } = await checkSignature(staged.archivePath, staged.bytes);
      // The manifest is read and validated alone, before a single file is written.
      const manifest = await parseManifest(await readTopLevelFile(archive, 'manifest.json', MAX_MANIFEST_BYTES));
      const files = join(staged.dir, 'files');
      const unpacked = await extractZip(archive, files, this.limits);
      await rm(staged.archivePath, { force: true });
      const fields = manifestFields(manifest, (text) => fillSystemVariables(text, this.options.home));
      this.stages.set(staged.id, { id: staged.id, dir: staged.dir, files, manifest, fields });
      await this.staging.dropOldest(this.stages, (old) => rm(old.dir, { recursive: true, force: true }));
      const taken = new Set(this.options.takenNames().map((name) => name.toLowerCase()));
      const fileName = source.kind === 'path' ? source.path.split(/[\\/]/).pop() : source.fileName;
      return {
        stageId: staged.id,
        ...(fileName === undefined ? {} : { fileName }),
        manifest: manifestView(manifest),
        fields,
        signature,
        files: { count: unpacked.files, bytes: unpacked.bytes },
        suggestedName: uniqueServerName(manifest.display_name ?? manifest.name, taken),
        installed: this.installsOf(manifest.name).map(([server, config]) => ({
          server,
          version: config.bundle!.version,
        })),
      };
    } catch (error) {
      await rm(staged.dir, { recursive: true, force: true });
      throw error;
    }
  }

  async review(stageId: string, name: string, values: BundleValues): Promise<BundleReview> {
    const stage = this.stage(stageId);
    const installPath = this.installPath(stage.manifest);
    const { shown, staged, problems } = await this.launches(stage, installPath, values);
    const review = await reviewBundle({
      manifest: stage.manifest,
      name,
      shown,
      staged,
      installPath,
      stagedPath: stage.files,
      launchPath: await this.options.launchPath(),
      defaultCwd: this.options.cwd,
      platform: this.options.platform,
    });
    review.problems = [...problems, ...review.problems];
    return review;
  }

  /**
   * Checks the settings, the runtime and that `confirmed` names every risk
   * the review flags again (the review may be stale; the host decides, not
   * the dialog), then moves the staged folder into place in one rename. A same-version folder
   * already there is moved aside first (and restored by rollback).
   */
  async prepareInstall(
    stageId: string,
    name: string,
    values: BundleValues,
    confirmed?: readonly string[],
  ): Promise<PreparedInstall> {
    const stage = this.stage(stageId);
    const review = await this.review(stageId, name, values);
    const first = review.problems[0];
    // One problem (the usual case: the review showed the rest) carries its code; several read as the host's English.
    if (first !== undefined)
      throw new HostError(
        'INVALID_INPUT',
        review.problems.map((problem) => problem.message).join('; '),
        first.field,
        review.problems.length === 1 ? first.hostMessage : undefined,
      );
    const yes = new Set(confirmed ?? []);
    const missing = review.warnings.filter((warning) => warning.confirm === true && !yes.has(warning.key ?? ''));
    if (missing.length > 0)
      throw HostError.coded(
        'INVALID_INPUT',
        unconfirmedWords(missing.map((warning) => ({ key: warning.key ?? '' }))),
        'confirmed',
      );
    if (!review.runtime.ok)
      throw HostError.coded('NOT_READY', bundleError('bundle-errors.cannot-run', { detail: review.runtime.message }));
    const existing = this.options.servers()[name];
    const updates = existing?.bundle?.name === stage.manifest.name ? name : undefined;
    const target = review.installPath;
    const holder = Object.entries(this.options.servers()).find(
      ([server, config]) => server !== updates && config.bundle?.path === target,
    )?.[0];
    if (holder !== undefined)
      throw HostError.coded(
        'CONFLICT',
        bundleError('bundle-errors.already-installed', {
          bundle: stage.manifest.name,
          version: stage.manifest.version,
          server: holder,
        }),
        'name',
      );
    const { shown } = await this.launches(stage, target, values);
    const parsed = ServerConfigSchema.safeParse({
      command: shown.command,
      args: shown.args,
      env: shown.env,
      secretEnv: shown.secretEnv,
      enabled: true,
      bundle: { name: stage.manifest.name, version: stage.manifest.version, path: target },
    });
    if (!parsed.success)
      throw new BundleRefused(
        bundleError('bundle-errors.settings-unusable', {
          detail: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
        }),
      );
    // Keep what the person had (timeouts, log level…) when updating.
    const config: ServerConfig =
      existing !== undefined && updates !== undefined ? { ...existing, ...parsed.data } : parsed.data;
    await this.ensureParent(target);
    const aside = (await exists(target)) ? await this.staging.retire(target) : undefined;
    await rename(stage.files, target);
    this.stages.delete(stageId);
    const previous = updates === undefined ? undefined : existing?.bundle?.path;
    return {
      config,
      ...(updates === undefined ? {} : { updates }),
      commit: async () => {
        await rm(stage.dir, { recursive: true, force: true });
        if (aside !== undefined) await rm(aside, { recursive: true, force: true });
        if (previous !== undefined && previous !== target) await this.removeFolder(previous);
      },
      rollback: async () => {
        await rename(target, stage.files);
        if (aside !== undefined) await rename(aside, target);
        this.stages.set(stageId, stage);
      },
    };
  }

  async discard(stageId: string): Promise<boolean> {
    const stage = this.stages.get(stageId);
    if (stage === undefined) return false;
    this.stages.delete(stageId);
    await rm(stage.dir, { recursive: true, force: true });
    return true;
  }

  /**
   * Deletes an uninstalled server's bundle folder, only when it lies inside
   * the bundles folder (config.json is a file the person can edit) and no
   * other server still runs from it; an emptied `<name>` folder goes too.
   */
  async removeFolder(path: string): Promise<void> {
    const root = resolve(this.options.bundlesDir);
    const rel = relative(root, resolve(path));
    const parts = rel.split(/[\\/]/);
    if (rel === '' || isAbsolute(rel) || parts[0] === '..' || parts.length !== 2 || parts[0]!.startsWith('.')) return;
    if (
      Object.values(this.options.servers()).some(
        (config) => config.bundle?.path !== undefined && resolve(config.bundle.path) === resolve(path),
      )
    )
      return;
    await rm(path, { recursive: true, force: true });
    await rmdir(join(root, parts[0]!)).catch(() => undefined);
  }

  private installsOf(bundleName: string): Array<[string, ServerConfig]> {
    return Object.entries(this.options.servers()).filter(([, config]) => config.bundle?.name === bundleName);
  }

  private stage(stageId: string): Stage {
    const stage = this.stages.get(stageId);
    if (stage === undefined) throw HostError.coded('NOT_FOUND', bundleError('bundle-errors.not-open', {}), 'stageId');
    return stage;
  }

  private installPath(manifest: BundleManifest): string {
    return join(this.options.bundlesDir, folderName(manifest.name), folderName(manifest.version));
  }

  private async ensureParent(target: string): Promise<void> {
    await makePrivateDir(join(target, '..'));
  }

  private async launches(
    stage: Stage,
    installPath: string,
    values: BundleValues,
  ): Promise<{ shown: BundleLaunch; staged: BundleLaunch; problems: BundleReview['problems'] }> {
    const checked = await checkValues(stage.fields, values);
    const common = { home: this.options.home, platform: this.options.platform };
    return {
      shown: buildLaunch(stage.manifest, stage.fields, checked.values, { ...common, bundleDir: installPath }),
      staged: buildLaunch(stage.manifest, stage.fields, checked.values, { ...common, bundleDir: stage.files }),
      problems: checked.problems,
    };
  }
}
