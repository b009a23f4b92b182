import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type {
  ClaudeDesktopExport,
  ForeignLocation,
  ImportCandidateView,
  ImportFailure,
  ImportInput,
  ImportOutcome,
  ImportPreview as ImportPreviewView,
  ImportSource,
} from '../../shared/contract/config-import';
import { SECRET_MASK, type ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { markDuplicates, type CheckedCandidate } from './duplicates';
import { exportClaudeDesktop } from './export';
import { parseForeignConfig, type ImportCandidate, type ImportPreview, type InputPrompt } from './foreign-formats';
import { foreignConfigLocations, type ForeignConfigLocation } from './locations';
import { reviewLaunch } from './launch-review';
import { addressRisk, launchRisks, unconfirmedRisks, unconfirmedWords } from '../../shared/domain/launch-confirm';
import { resolveCandidate } from './resolve-inputs';
import { uniqueServerName } from './server-names';
import { errorMessage } from '../../shared/error-message';
import { configError } from '../../shared/domain/config-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import { configImportError } from '../../shared/domain/config-import-errors';

/** Foreign config files are small; anything bigger is not one. */
const MAX_FILE_BYTES = 2_000_000;

/** What the import reads from and writes to Berth's own config. */
export interface ImportConfigTarget {
  /** Valid entries, secrets unmasked (host-side only). */
  servers(): Record<string, ServerConfig>;
  /** Every name in use, including servers still running from a broken entry. */
  takenNames(): string[];
  /** All or nothing (ConfigStore.addServers). */
  addServers(entries: readonly { name: string; config: ServerConfig }[]): Promise<void>;
}

export interface ConfigImportOptions {
  config: ImportConfigTarget;
  platform: NodeJS.Platform;
  home: string;
  /** The environment for locations (APPDATA, XDG_CONFIG_HOME) and for `${env:NAME}`: the servers' own, never the host's secrets. */
  env: Readonly<Record<string, string | undefined>>;
  /** The PATH servers are started with (the login shell's, merged with Berth's), to show which file a command runs. */
  launchPath?: () => Promise<string | undefined>;
  /** Where a server without `cwd` starts (Berth's working directory). */
  cwd?: string;
}

/** One selected candidate and the Berth name the person gave it. */
export interface ImportSelection {
  sourceName: string;
  name: string;
  /** The keys of the flagged warnings the person confirmed for this server. */
  confirmed?: readonly string[] | undefined;
}

export interface ApplyRequest {
  source: ImportSource;
  servers: readonly ImportSelection[];
  answers: Readonly<Record<string, string>>;
  workspaceFolder?: string | undefined;
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const PLACEHOLDER = /\$\{[^}]*\}/g;

/** A secret key's value is masked unless it is nothing but placeholders (then it holds no secret yet). */
function previewEnv(env: Record<string, string>, secretKeys: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([key, value]) => [
      key,
      secretKeys.includes(key) && value.replace(PLACEHOLDER, '').trim() !== '' ? SECRET_MASK : value,
    ]),
  );
}

function candidateStrings(candidate: ImportCandidate): string[] {
  const config = candidate.config;
  if (config === undefined) return [candidate.url ?? '', ...Object.values(candidate.headers ?? {})];
  return [config.command ?? '', ...config.args, ...Object.values(config.env), config.cwd ?? ''];
}

function inputView(input: InputPrompt): ImportInput {
  const view: ImportInput = {
    id: input.id,
    type: input.type,
    description: input.description,
    password: input.password,
    hasDefault: input.default !== undefined,
  };
  if (input.options !== undefined) view.options = [...input.options];
  // A password's default is a secret too: the renderer only learns that there is one.
  if (input.default !== undefined && !input.password) view.default = input.default;
  return view;
}

/**
 * Config interop for the bridge: finds other apps' config files, previews
 * them against Berth's servers, imports the selected servers all-or-nothing
 * and exports Berth's servers in Claude Desktop's shape. The renderer never
 * receives a secret value: previews mask them and re-imports re-read the source.
 */
export class ConfigImportService {
  constructor(private readonly options: ConfigImportOptions) {}

  async locations(projectFolder?: string): Promise<ForeignLocation[]> {
    const found = foreignConfigLocations({
      ...this.locationOptions(),
      ...(projectFolder === undefined ? {} : { projectFolder: this.checkFolder(projectFolder, 'projectFolder') }),
    });
    return Promise.all(
      found.map(async (location) => {
        const { exists, problem } = await this.probe(location.path);
        return {
          ...location,
          exists,
          ...(problem === undefined ? {} : { problem: problem.text, problemMessage: problem.hostMessage }),
        };
      }),
    );
  }

  async preview(source: ImportSource): Promise<ImportPreviewView> {
    const { preview, path, workspaceFolder } = await this.read(source);
    const existing = new Map(Object.entries(this.options.config.servers()));
    const taken = new Set(this.options.config.takenNames().map((name) => name.toLowerCase()));
    const launchPath = await this.options.launchPath?.();
    const servers = await Promise.all(
      markDuplicates(preview.servers, existing).map((candidate) => {
        const name = uniqueServerName(candidate.name, taken);
        taken.add(name.toLowerCase());
        return this.candidateView(candidate, name, preview.inputs, launchPath, workspaceFolder);
      }),
    );
    return {
      format: preview.format,
      ...(path === undefined ? {} : { path }),
      servers,
      inputs: preview.inputs.map(inputView),
      problems: preview.problems,
      ...(workspaceFolder === undefined ? {} : { workspaceFolder }),
    };
  }

  /**
   * Resolve every selected candidate first; only when all of them are valid
   * (names free and distinct, inputs answered, placeholders filled) are they
   * written, in one write. Otherwise nothing changes and each failure says why.
   */
  async apply(request: ApplyRequest): Promise<ImportOutcome> {
    const { preview, workspaceFolder: sourceFolder } = await this.read(request.source);
    const failures: ImportFailure[] = [];
    const fault = (sourceName: string, words: Pick<CodedText, 'text'> & Partial<CodedText>, field?: string): void => {
      const failure: ImportFailure = { sourceName, message: words.text };
      if (words.hostMessage !== undefined) failure.hostMessage = words.hostMessage;
      failures.push(field === undefined ? failure : { ...failure, field });
    };
    const folder = request.workspaceFolder ?? sourceFolder;
    if (folder !== undefined && !isAbsolute(folder)) {
      const words = configImportError('config-import-errors.folder-not-absolute', { folder });
      return {
        imported: false,
        failures: [{ sourceName: '', message: words.text, field: 'workspaceFolder', hostMessage: words.hostMessage }],
      };
    }
    const first = preview.problems[0];
    const unreadable =
      preview.servers.length === 0 && first !== undefined
        ? first.line === undefined
          ? configImportError('config-import-errors.file-unreadable', { reason: first.message }, first.hostMessage)
          : configImportError(
              'config-import-errors.file-unreadable-at',
              { line: first.line, column: first.column ?? 1, reason: first.message },
              first.hostMessage,
            )
        : undefined;
    const taken = new Map(this.options.config.takenNames().map((name) => [name.toLowerCase(), name]));
    const chosen = new Map<string, string>();
    const entries: { name: string; config: ServerConfig }[] = [];
    const selected = new Set<string>();
    for (const selection of request.servers) {
      if (selected.has(selection.sourceName)) {
        fault(
          selection.sourceName,
          configImportError('config-import-errors.selected-twice', { server: selection.sourceName }),
        );
        continue;
      }
      selected.add(selection.sourceName);
      const candidate = preview.servers.find((server) => server.sourceName === selection.sourceName);
      if (candidate === undefined) {
        fault(
          selection.sourceName,
          unreadable ?? configImportError('config-import-errors.no-longer-in-file', { server: selection.sourceName }),
        );
        continue;
      }
      const name = selection.name.trim();
      const lower = name.toLowerCase();
      const clash = taken.get(lower);
      const twice = chosen.get(lower);
      if (clash !== undefined)
        fault(selection.sourceName, configImportError('config-import-errors.name-taken', { name: clash }), 'name');
      else if (twice !== undefined)
        fault(
          selection.sourceName,
          configImportError('config-import-errors.name-twice', { name, other: twice }),
          'name',
        );
      chosen.set(lower, selection.sourceName);
      const resolved = resolveCandidate(candidate, {
        inputs: preview.inputs,
        answers: request.answers,
        env: this.options.env,
        userHome: this.options.home,
        ...(folder === undefined ? {} : { workspaceFolder: folder }),
      });
      if (!resolved.ok) {
        fault(selection.sourceName, { text: resolved.message, hostMessage: resolved.hostMessage }, resolved.path);
        continue;
      }
      const missing = unconfirmedRisks(launchRisks(resolved.value.config), selection.confirmed);
      if (missing.length > 0) {
        // The review's own words (shared/domain/launch-confirm.ts): English until that family has a code.
        fault(selection.sourceName, unconfirmedWords(missing, 'import'), 'confirmed');
        continue;
      }
      // A file from elsewhere decides what runs: nothing starts until the person has looked and turned it on.
      entries.push({ name, config: { ...resolved.value.config, enabled: false } });
    }
    if (failures.length > 0) return { imported: false, failures };
    await this.options.config.addServers(entries);
    return { imported: true, added: entries.map((entry) => entry.name) };
  }

  export(): ClaudeDesktopExport {
    const servers = new Map(Object.entries(this.options.config.servers()));
    const result = exportClaudeDesktop(servers);
    return {
      text: result.text,
      fileName: 'claude_desktop_config.json',
      serverCount: servers.size,
      omittedSecrets: result.omittedSecrets,
    };
  }

  private locationOptions() {
    return { platform: this.options.platform, home: this.options.home, env: this.options.env };
  }

  private checkFolder(folder: string, field: string): string {
    if (!isAbsolute(folder))
      throw HostError.coded('INVALID_INPUT', configError('config-errors.import-folder-relative', { folder }), field);
    return folder;
  }

  private async probe(path: string): Promise<{ exists: boolean; problem?: CodedText }> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return { exists: true, problem: configError('config-errors.import-not-file', { path }) };
      if (info.size > MAX_FILE_BYTES)
        return { exists: true, problem: configError('config-errors.import-too-large', { path, bytes: info.size }) };
      return { exists: true };
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return { exists: false };
      return {
        exists: true,
        problem: configError('config-errors.import-unreadable', { path, detail: errorMessage(error) }),
      };
    }
  }

  private findLocation(id: ForeignConfigLocation['id'], projectFolder: string | undefined): ForeignConfigLocation {
    const options = {
      ...this.locationOptions(),
      ...(projectFolder === undefined
        ? {}
        : { projectFolder: this.checkFolder(projectFolder, 'source.projectFolder') }),
    };
    const location = foreignConfigLocations(options).find((candidate) => candidate.id === id);
    if (location === undefined)
      throw HostError.coded(
        'INVALID_INPUT',
        configError('config-errors.import-needs-project', { id }),
        'source.projectFolder',
      );
    return location;
  }

  private async read(
    source: ImportSource,
  ): Promise<{ preview: ImportPreview; path?: string; workspaceFolder?: string }> {
    if (source.kind === 'text') return { preview: parseForeignConfig(source.format, source.text) };
    const location = this.findLocation(source.id, source.projectFolder);
    const { exists, problem } = await this.probe(location.path);
    if (!exists)
      throw HostError.coded(
        'NOT_FOUND',
        configError('config-errors.import-missing', { label: location.label, path: location.path }),
        'source.id',
      );
    if (problem !== undefined) throw HostError.coded('IO_ERROR', problem, 'source.id');
    let text: string;
    try {
      text = await readFile(location.path, 'utf8');
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        configError('config-errors.import-unreadable', { path: location.path, detail: errorMessage(error) }),
        'source.id',
      );
    }
    const projectFile = location.id === 'claude-code-project' || location.id === 'vscode-workspace';
    return {
      preview: parseForeignConfig(location.format, text),
      path: location.path,
      ...(projectFile && source.projectFolder !== undefined ? { workspaceFolder: source.projectFolder } : {}),
    };
  }

  /**
   * The candidate's config with what is known filled in (environment,
   * project folder, home), to find the file its command runs. Inputs get a
   * stand-in: where the command is found never depends on them (a command,
   * cwd or PATH that uses one stays unresolved, see reviewLaunch).
   */
  private filledForReview(
    candidate: ImportCandidate,
    inputs: readonly InputPrompt[],
    workspaceFolder: string | undefined,
  ): ServerConfig {
    const raw = candidate.config;
    if (raw === undefined) throw new Error(`candidate "${candidate.sourceName}" has no command to review`);
    const usesInput = [raw.command ?? '', raw.cwd ?? '', raw.env.PATH ?? ''].some((text) => text.includes('${input:'));
    if (usesInput) return raw;
    const answers = Object.fromEntries(
      inputs.map((input) => [input.id, input.default ?? input.options?.[0] ?? 'input']),
    );
    const filled = resolveCandidate(candidate, {
      inputs,
      answers,
      env: this.options.env,
      userHome: this.options.home,
      ...(workspaceFolder === undefined ? {} : { workspaceFolder }),
    });
    return filled.ok ? filled.value.config : raw;
  }

  private async candidateView(
    candidate: CheckedCandidate,
    name: string,
    inputs: readonly InputPrompt[],
    launchPath: string | undefined,
    workspaceFolder: string | undefined,
  ): Promise<ImportCandidateView> {
    const view: ImportCandidateView = {
      sourceName: candidate.sourceName,
      name,
      kind: candidate.kind,
      secretEnvKeys: [...candidate.secretEnvKeys],
      requiredInputs: [...candidate.requiredInputs],
      usesWorkspaceFolder:
        candidate.format === 'vscode' &&
        candidateStrings(candidate).some((text) => text.includes('${workspaceFolder}')),
      warnings: [],
    };
    const config = candidate.config;
    if (config !== undefined) {
      view.command = config.command;
      view.args = [...config.args];
      view.env = previewEnv(config.env, candidate.secretEnvKeys);
      if (config.cwd !== undefined) view.cwd = config.cwd;
      const review = await reviewLaunch(this.filledForReview(candidate, inputs, workspaceFolder), {
        launchPath,
        defaultCwd: this.options.cwd ?? process.cwd(),
        ...(workspaceFolder === undefined ? {} : { projectFolder: workspaceFolder }),
      });
      if (review.resolvedCommand !== undefined) view.resolvedCommand = review.resolvedCommand;
      view.warnings = review.warnings;
    }
    if (candidate.url !== undefined) {
      view.url = candidate.url;
      const target = addressRisk(candidate.url);
      if (target !== undefined) view.warnings.push({ ...target, confirm: true });
    }
    if (candidate.headers !== undefined) view.headerNames = Object.keys(candidate.headers);
    if (candidate.unsupported !== undefined) view.unsupported = candidate.unsupported;
    if (candidate.duplicateOf !== undefined) view.duplicateOf = { ...candidate.duplicateOf };
    return view;
  }
}
