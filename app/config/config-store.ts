import { watch as watchDir, type FSWatcher } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeServerOAuthIssuer } from './config-edit';
import type { ConfigStatus } from '../../shared/domain/config';
import { ServerConfigSchema, ServerNameSchema, type LogLevel, type ServerConfig } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { configError } from '../../shared/domain/config-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import type { HostMessage } from '../../shared/domain/host-message';
import { inputIssueWords } from '../../shared/domain/input-issue-words';
import type { z } from 'zod';
import { atomicWriteFile } from './atomic-write';
import { makePrivateDirSync } from './private-files';
import {
  firstProblem,
  type FirstProblem,
  documentProblems,
  nameRule,
  parseConfigText,
  type ConfigDocument,
} from './config-document';
import { configProblem } from '../../shared/domain/config-problems';
import { findSecretSlots, hiddenSecretsWarning, maskSecretSlots, unmaskSecretSlots } from './config-masking';
import { removeServerEntry, writeServerEntry, writeServerLogLevel } from './config-edit';
import { errorMessage } from '../../shared/error-message';

/** Env values may hold secrets until they move to the keychain: owner-only. */
const CONFIG_FILE_MODE = 0o600;

/** Options of a `ConfigStore`. */
export interface ConfigStoreOptions {
  filePath: string;
  /**
   * Called when the store picks up content it did not write itself: an
   * external edit seen by `watch()`, or one found on disk just before a write.
   */
  onChange?: (status: ConfigStatus) => void;
  /** Called when the file watcher fails (e.g. the directory was deleted); defaults to console.error. */
  onWatchError?: (error: Error) => void;
  /** Quiet period before reloading after a change event (editors write in several steps). */
  watchDebounceMs?: number;
  /**
   * Moves plain secret values out of config text into the secret store and
   * returns the text with references instead (undefined: nothing to move).
   * Applied to every text read (then written back at once) and every text
   * about to be written, so secret values never stay in the file. Never rejects.
   */
  moveSecretsOut?: (text: string) => Promise<string | undefined>;
  /** A problem nobody waits for (the file could not be rewritten without its secrets); defaults to console.warn. */
  warn?: (text: string) => void;
}

/** Options of `setServer`. */
export interface SetServerOptions {
  /** Rename: the entry currently called this becomes `name`, keeping its place and unknown keys. */
  previousName?: string;
}

/** What the last read of the file found. */
type DiskState = { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'error'; words: CodedText };

function sameDisk(a: DiskState, b: DiskState): boolean {
  return isDeepStrictEqual(a, b);
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * The Claude-Desktop-compatible config file (`{ "mcpServers": { … } }`).
 * Reads never throw for bad content; writes are surgical (only the touched
 * entry's text changes), atomic, serialized, and refused while the file has a
 * syntax error, so nothing the person wrote is ever overwritten.
 */
export class ConfigStore {
  private readonly filePath: string;
  private readonly onChange: ((status: ConfigStatus) => void) | undefined;
  private readonly onWatchError: (error: Error) => void;
  private readonly debounceMs: number;
  private readonly moveSecretsOut: ((text: string) => Promise<string | undefined>) | undefined;
  private readonly warn: (text: string) => void;
  private disk: DiskState = { kind: 'missing' };
  private doc: ConfigDocument = parseConfigText('');
  /** The invalid text as the renderer may see it, worked out once per text. */
  private masked: { source: string; text: string; hidden: number } | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;

  constructor(options: ConfigStoreOptions) {
    this.filePath = options.filePath;
    this.onChange = options.onChange;
    this.onWatchError =
      options.onWatchError ?? ((error) => console.error(`Berth: watching ${this.filePath} failed: ${error.message}`));
    this.debounceMs = options.watchDebounceMs ?? 150;
    this.moveSecretsOut = options.moveSecretsOut;
    this.warn = options.warn ?? ((text) => console.warn(`Berth: ${text}`));
  }

  /** Read the file now (queued behind pending writes). */
  load(): Promise<ConfigStatus> {
    return this.enqueue(async () => {
      this.adopt(await this.readMovingSecrets());
      return this.status();
    });
  }

  /** The file's text as last read or written ('' when missing or unreadable). */
  text(): string {
    return this.disk.kind === 'text' ? this.disk.text : '';
  }

  status(): ConfigStatus {
    const path = this.filePath;
    if (this.disk.kind === 'missing') return { path, state: 'missing', problems: [] };
    if (this.disk.kind === 'error') return { path, state: 'invalid', problems: [{ message: this.disk.words.text }] };
    const problems = documentProblems(this.doc);
    if (problems.length === 0) return { path, state: 'ok', problems: [] };
    return this.invalid(problems, this.doc.text);
  }

  /** An invalid status whose text hides the plain secret values it holds. */
  private invalid(problems: ConfigStatus['problems'], text: string): ConfigStatus {
    if (this.masked?.source !== text) {
      const { text: maskedText, slots } = maskSecretSlots(text);
      this.masked = { source: text, text: maskedText, hidden: slots.length };
    }
    const { text: shown, hidden } = this.masked;
    return {
      path: this.filePath,
      state: 'invalid',
      problems,
      text: shown,
      ...(hidden > 0 ? { hiddenSecrets: hidden } : {}),
    };
  }

  /** Valid entries only, parsed with defaults applied, in file order. */
  servers(): Record<string, ServerConfig> {
    // Copies, so a caller mutating its config cannot change what the store believes is on disk.
    return structuredClone(Object.fromEntries(this.doc.servers));
  }

  /** Every entry's name, broken entries included, in file order. */
  names(): string[] {
    return [...this.doc.names];
  }

  /** The stored config of one valid entry (secrets unmasked: host-side use only). */
  rawServer(name: string): ServerConfig | undefined {
    const config = this.doc.servers.get(name);
    return config === undefined ? undefined : structuredClone(config);
  }

  /** Add a server; `CONFLICT` when the name is taken (case-sensitive). */
  async addServer(name: string, config: ServerConfig): Promise<void> {
    const validName = this.checkName(name);
    const validConfig = this.checkConfig(config);
    return this.mutate((doc) => {
      if (doc.names.includes(validName))
        throw HostError.coded('CONFLICT', serverError('server-errors.name-taken', { name: validName }), 'name');
      return writeServerEntry(doc, validName, validConfig);
    }, validName);
  }

  /**
   * Add several servers in one write: all of them or, when any name is taken
   * (`CONFLICT`) or invalid, none.
   */
  async addServers(entries: readonly { name: string; config: ServerConfig }[]): Promise<void> {
    const valid = entries.map((entry) => ({
      name: this.checkName(entry.name),
      config: this.checkConfig(entry.config),
    }));
    return this.mutate(
      (doc) => {
        let current = doc;
        let text = doc.text;
        for (const { name, config } of valid) {
          if (current.names.includes(name))
            throw HostError.coded('CONFLICT', serverError('server-errors.name-taken', { name }), 'name');
          text = writeServerEntry(current, name, config);
          current = parseConfigText(text);
        }
        return text;
      },
      valid.map((entry) => entry.name),
    );
  }

  /**
   * Add or replace a server, or rename one with `previousName` (`NOT_FOUND`
   * if it does not exist, `CONFLICT` if the new name is taken).
   */
  async setServer(name: string, config: ServerConfig, options: SetServerOptions = {}): Promise<void> {
    const validName = this.checkName(name);
    const validConfig = this.checkConfig(config);
    const previousName = options.previousName;
    return this.mutate((doc) => {
      if (previousName !== undefined && previousName !== validName) {
        if (!doc.names.includes(previousName))
          throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: previousName }), 'name');
        this.refuseDuplicate(doc, previousName);
        if (doc.names.includes(validName))
          throw HostError.coded('CONFLICT', serverError('server-errors.name-taken', { name: validName }), 'newName');
        return writeServerEntry(doc, validName, validConfig, previousName);
      }
      this.refuseDuplicate(doc, validName);
      return writeServerEntry(doc, validName, validConfig);
    }, validName);
  }

  /**
   * Remember a server's log level (`undefined`: the server's own default) by
   * editing only its `logLevel` property. The entry must be valid: a broken
   * one is the person's to fix first (`CONFIG_INVALID`).
   */
  async setServerLogLevel(name: string, level: LogLevel | undefined): Promise<void> {
    return this.mutate((doc) => {
      if (!doc.names.includes(name))
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'name');
      this.refuseDuplicate(doc, name);
      if (!doc.servers.has(name)) {
        throw HostError.coded('CONFIG_INVALID', configError('config-errors.entry-has-errors', { name }), 'name');
      }
      return writeServerLogLevel(doc, name, level);
    }, name);
  }

  /** Pin a server's `oauth.issuer` where it has none (see writeServerOAuthIssuer): only that property's text changes. */
  async pinServerOAuthIssuer(name: string, issuer: string): Promise<void> {
    return this.mutate((doc) => writeServerOAuthIssuer(doc, name, issuer), name);
  }

  /** Remove an entry, valid or broken; `NOT_FOUND` if there is none. */
  async removeServer(name: string): Promise<void> {
    return this.mutate((doc) => {
      if (!doc.names.includes(name))
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'name');
      this.refuseDuplicate(doc, name);
      return removeServerEntry(doc, name);
    });
  }

  /**
   * Replace the whole file with text from the fix-it editor. Its masked
   * secret values (see status()) are put back from the file first. Written
   * only if it parses and every entry validates; otherwise the returned
   * status lists the problems (with the submitted text) and the file stays
   * byte-identical.
   */
  saveText(submitted: string): Promise<ConfigStatus> {
    return this.enqueue(async () => {
      // The file as it is now, and as the editor was shown it (an external edit may have come in between).
      const onDisk = await this.read();
      const unmasked = unmaskSecretSlots(submitted, [onDisk.kind === 'text' ? onDisk.text : '', this.text()]);
      if (unmasked.problems.length > 0) return this.invalid(unmasked.problems, submitted);
      const text = unmasked.text;
      const doc = parseConfigText(text);
      const problems = documentProblems(doc);
      if (problems.length > 0) return this.invalid(problems, text);
      const written = await this.write(text);
      this.disk = { kind: 'text', text: written };
      this.doc = written === text ? doc : parseConfigText(written);
      return this.status();
    });
  }

  /** Reload on external edits (debounced); our own writes are recognised by content and ignored. */
  watch(): void {
    if (this.watcher !== undefined) return;
    const dir = dirname(this.filePath);
    const file = basename(this.filePath);
    try {
      // Watch the directory, not the file: an atomic save (ours or an editor's) replaces the file's inode.
      makePrivateDirSync(dir);
      this.watcher = watchDir(dir, { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== file) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.reloadExternal(), this.debounceMs);
      });
    } catch (error) {
      this.onWatchError(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.watcher.on('error', (error) => {
      this.close();
      this.onWatchError(error);
    });
  }

  close(): void {
    clearTimeout(this.debounce);
    this.debounce = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  private async reloadExternal(): Promise<void> {
    await this.enqueue(async () => {
      const next = await this.readMovingSecrets();
      if (sameDisk(next, this.disk)) return;
      this.adopt(next);
      this.notifyChange();
    });
  }

  private notifyChange(): void {
    try {
      this.onChange?.(this.status());
    } catch (error) {
      this.onWatchError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private checkName(name: string): string {
    const parsed = ServerNameSchema.safeParse(name);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const rule = nameRule(issue);
      const message = issue?.message ?? 'Invalid server name';
      const words = rule === undefined ? undefined : configProblem('config-problems.name-rule', { rule });
      // The schema's words stay the message; the person reads the first problem by its kind.
      throw words?.text === message
        ? HostError.coded('INVALID_INPUT', words, 'name')
        : new HostError('INVALID_INPUT', message, 'name', issueCode(parsed.error.issues, ['name']));
    }
    return parsed.data;
  }

  private checkConfig(config: ServerConfig): ServerConfig {
    const parsed = ServerConfigSchema.safeParse(config);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HostError(
        'INVALID_INPUT',
        issue?.message ?? 'Invalid server config',
        ['config', ...(issue?.path ?? []).map(String)].join('.'),
        issueCode(parsed.error.issues, ['config']),
      );
    }
    return parsed.data;
  }

  private refuseDuplicate(doc: ConfigDocument, name: string): void {
    if (doc.ambiguousNames.has(name)) {
      throw HostError.coded('CONFIG_INVALID', configError('config-errors.duplicate-keys', { name }), 'name');
    }
  }

  /**
   * Re-read the file, apply one edit to its current text and write it. Reading
   * first means an external edit made since the last load is never clobbered.
   */
  private mutate(edit: (doc: ConfigDocument) => string, touched?: string | readonly string[]): Promise<void> {
    return this.enqueue(async () => {
      const current = await this.read();
      if (!sameDisk(current, this.disk)) {
        this.adopt(current);
        this.notifyChange();
      }
      if (current.kind === 'error') throw HostError.coded('IO_ERROR', current.words);
      const status = this.status();
      if (this.doc.fatal.length > 0) {
        throw HostError.coded('CONFIG_INVALID', fileHasErrors(this.filePath, firstProblem(status.problems)));
      }
      const next = edit(this.doc);
      const nextDoc = parseConfigText(next);
      const mustExist = touched === undefined ? [] : typeof touched === 'string' ? [touched] : touched;
      if (nextDoc.fatal.length > 0 || mustExist.some((name) => !nextDoc.servers.has(name))) {
        // A bug in the edit must never reach the disk.
        throw HostError.coded('INTERNAL', editInvalid(firstProblem(documentProblems(nextDoc))));
      }
      const written = await this.write(next);
      this.disk = { kind: 'text', text: written };
      this.doc = written === next ? nextDoc : parseConfigText(written);
    });
  }

  /** Writes `text` with any plain secret values moved out first; returns what was written. */
  private async write(text: string): Promise<string> {
    const written = (await this.moveSecretsOut?.(text)) ?? text;
    await this.writeText(written);
    return written;
  }

  private async writeText(text: string): Promise<void> {
    // Write through a symlink (dotfile setups) instead of replacing it with a plain file.
    const target = await realpath(this.filePath).catch(() => this.filePath);
    try {
      await atomicWriteFile(target, text, CONFIG_FILE_MODE);
    } catch (error) {
      throw HostError.coded(
        'IO_ERROR',
        configError('config-errors.write-failed', { file: this.filePath, detail: errorMessage(error) }),
      );
    }
  }

  /**
   * A read that rewrites the file when it holds plain secret values (a config
   * from before secret references, or edited by hand). A failed rewrite keeps
   * the file as it was, with a message, and Berth runs from the text read.
   */
  private async readMovingSecrets(): Promise<DiskState> {
    const state = await this.read();
    if (state.kind !== 'text' || this.moveSecretsOut === undefined) return state;
    const moved = await this.moveSecretsOut(state.text);
    if (moved === undefined) return state;
    try {
      await this.writeText(moved);
    } catch (error) {
      this.warn(
        `could not rewrite ${this.filePath} with its secret values moved to the secret store (${errorMessage(error)}); they stay in the file for now`,
      );
      return state;
    }
    return { kind: 'text', text: moved };
  }

  private async read(): Promise<DiskState> {
    try {
      return { kind: 'text', text: await readFile(this.filePath, 'utf8') };
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { kind: 'missing' };
      return {
        kind: 'error',
        words: configError('config-errors.read-failed', { file: this.filePath, detail: errorMessage(error) }),
      };
    }
  }

  private adopt(state: DiskState): void {
    this.disk = state;
    this.doc = parseConfigText(state.kind === 'text' ? state.text : '');
    const problems = documentProblems(this.doc);
    if (state.kind !== 'text' || problems.length === 0) return;
    const hidden = findSecretSlots(state.text);
    if (hidden.length > 0) this.warn(hiddenSecretsWarning(this.filePath, hidden));
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // The caller gets the failure through `result`; the queue itself must keep going.
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** A schema's first problem by its kind (bridge-errors' codes, as a refused input reads), its field under `prefix`. */
function issueCode(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): HostMessage | undefined {
  return inputIssueWords(issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] })))?.hostMessage;
}

function fileHasErrors(file: string, first: FirstProblem | undefined): CodedText {
  // Never so: a file is refused for its problems. The words are what Berth always said.
  if (first === undefined)
    return configError('config-errors.file-has-errors', { file, more: 0, reason: 'unknown problem' });
  const { at, more, reason, cause } = first;
  return at === undefined
    ? configError('config-errors.file-has-errors', { file, more, ...reason }, cause)
    : configError('config-errors.file-has-errors-at', { file, ...at, more, ...reason }, cause);
}

function editInvalid(first: FirstProblem | undefined): CodedText {
  if (first === undefined) return configError('config-errors.edit-invalid-unknown', {});
  const { at, more, reason, cause } = first;
  return at === undefined
    ? configError('config-errors.edit-invalid', { more, ...reason }, cause)
    : configError('config-errors.edit-invalid-at', { ...at, more, ...reason }, cause);
}
