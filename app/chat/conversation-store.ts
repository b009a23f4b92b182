import type { ReasoningLevel } from '../../shared/domain/reasoning';
import { randomUUID } from 'node:crypto';
import { readFile, readdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HostError } from '../../shared/result';
import { conversationError, type ConversationFileProblem } from '../../shared/domain/conversation-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import {
  ConversationIdSchema,
  ConversationSchema,
  DEFAULT_CONVERSATION_TITLE,
  messageText,
  summarizeConversation,
} from '../../shared/domain/chat';
import type { ToolSearchMode } from '../../shared/domain/tool-search';
import type {
  ChatFailed,
  ChatMessage,
  ChatToolResultBlock,
  ContextCut,
  BackgroundTaskMode,
  ContextPolicy,
  Conversation,
  ConversationSummary,
} from '../../shared/domain/chat';
import { atomicWriteFile } from '../config/atomic-write';
import { makePrivateDir } from '../config/private-files';
import { removeInterruptedWrites } from '../config/state-file';
import { errorMessage } from '../../shared/error-message';
import type { ConversationsDelta, LoadedToolsChange } from '../../shared/contract/chat';
import { INDEX_FILE_NAME, IndexWriter, fileIdentity, scanIndex } from './conversation-index';
import type { FileIdentity, IndexEntry } from './conversation-index';
import { ResultFiles } from './results/result-files';
import { branchAt, pruneForks, switchVersion } from './conversation-forks';

/** A conversation file that could not be read (kept aside under a new name when its content is bad). */
export interface ConversationProblem {
  id: string;
  /** Where the corrupt file now is; absent when the file could not even be read (it stays in place). */
  movedTo?: string;
  message: string;
}

export interface ConversationStoreOptions {
  /** The config dir: conversations live in `<dir>/conversations`, deleted ones in `<dir>/conversations/trash`. */
  dir: string;
  /** Told about every corrupt file found (it has already been moved aside). */
  onProblem?: (problem: ConversationProblem) => void;
  /** After every change to the list (create, rename, new message, delete, restore…), with what changed. Must not throw. */
  onChange?: (delta: ConversationsDelta) => void;
  /** After the tools tool search loaded changed in one conversation (a load_tools call, the person unloading), with the whole new list. Must not throw. */
  onLoadedToolsChange?: (change: LoadedToolsChange) => void;
  /** Told when the index was rebuilt or repaired at open, or could not be written. */
  onNotice?: (message: string) => void;
  /** Identities of the conversation files (by file name) taken at this start, not to be stat'ed again (see scanIndex). */
  seenFiles?: ReadonlyMap<string, FileIdentity>;
  now?: () => number;
}

/** Told of every conversation saved (with the file it is now) and every one that left the list: what full-text search follows. */
export interface ConversationContentListener {
  saved(conversation: Conversation, file: FileIdentity): void;
  removed(id: string): void;
}

/** The settings a conversation keeps besides its messages. */
export interface ConversationSettingsPatch {
  model?: string;
  disabledServers?: string[];
  disabledTools?: string[];
  toolSearch?: ToolSearchMode;
  loadedTools?: string[];
  reasoning?: ReasoningLevel;
  contextPolicy?: ContextPolicy;
  backgroundTasks?: BackgroundTaskMode;
  /** null: every message is sent again (the cut was undone because what it cut was removed). */
  contextCut?: ContextCut | null;
  /** The person's system prompt, temperature and longest reply (chat.setParams); null or '' (the prompt): back to none. */
  systemPrompt?: string | null;
  temperature?: number | null;
  maxTokens?: number | null;
}

const TITLE_MAX = 200;
const AUTO_TITLE_LENGTH = 60;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** First line of the first message, cut at a word near 60 characters. */
function autoTitle(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= AUTO_TITLE_LENGTH) return line || DEFAULT_CONVERSATION_TITLE;
  const cut = line.slice(0, AUTO_TITLE_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}

/**
 * Conversations on disk, one JSON file each, written atomically. The list
 * comes from `conversations/index.v1.json` where it still matches the files (see
 * conversation-index.ts); every file it does not describe is read at open.
 * Writes to one conversation run one after another; a file that cannot be
 * read is moved aside as `<id>.json.corrupt-<time>` and reported, never
 * overwritten.
 */
export class ConversationStore {
  private readonly summaries = new Map<string, ConversationSummary>();
  /** Size, mtime and inode of each file as last read or written: what the index records. */
  private readonly files = new Map<string, FileIdentity>();
  private readonly index: IndexWriter;
  /** Conversations read or written this session. */
  private readonly cache = new Map<string, Conversation>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly found: ConversationProblem[] = [];
  private readonly contentListeners = new Set<ConversationContentListener>();
  private readonly now: () => number;
  readonly conversationsDir: string;
  readonly trashDir: string;
  /** Big tool results, each stored once beside its conversation (app/chat/results/result-files.ts). */
  readonly results: ResultFiles;

  private constructor(private readonly options: ConversationStoreOptions) {
    this.now = options.now ?? Date.now;
    this.conversationsDir = join(options.dir, 'conversations');
    this.trashDir = join(this.conversationsDir, 'trash');
    this.results = new ResultFiles(this.conversationsDir, this.trashDir, (id, message) =>
      options.onProblem?.({ id, message }),
    );
    this.index = new IndexWriter(
      join(this.conversationsDir, INDEX_FILE_NAME),
      () => this.indexEntries(),
      (message) => options.onNotice?.(message),
    );
  }

  /** Build the list from the index, reading only the files it does not describe. */
  static async open(options: ConversationStoreOptions): Promise<ConversationStore> {
    const store = new ConversationStore(options);
    await makePrivateDir(store.trashDir);
    const scan = await scanIndex(store.conversationsDir, options.seenFiles);
    // Temp files of writes a crash interrupted: the real files beside them are intact (the scan skips such names).
    await removeInterruptedWrites(store.conversationsDir, undefined, scan.names);
    for (const [id, entry] of scan.fresh) {
      store.summaries.set(id, entry.summary);
      store.files.set(id, entry.file);
    }
    for (const id of scan.toRead) {
      try {
        const conversation = await store.readConversation(id, false);
        store.summaries.set(conversation.id, summarizeConversation(conversation));
      } catch (error) {
        // Already reported by readConversation; one bad file must not hide the others.
        if (!(error instanceof HostError && (error.code === 'IO_ERROR' || error.code === 'NOT_FOUND'))) throw error;
      }
    }
    if (scan.rebuildReason !== undefined && scan.toRead.length === 0 && store.summaries.size === 0) {
      // A new config dir: nothing to rebuild, the first change writes the index.
    } else if (scan.rebuildReason !== undefined) {
      options.onNotice?.(`Rebuilt the conversations index from ${scan.toRead.length} files: ${scan.rebuildReason}`);
      store.index.schedule();
    } else if (scan.toRead.length > 0 || scan.dropped > 0) {
      options.onNotice?.(
        `The conversations index was out of date (${scan.toRead.length} files new or changed outside Berth, ${scan.dropped} gone); updated it`,
      );
      store.index.schedule();
    }
    // A repaired index is on disk before the store is used: the next start is quick even if this one is cut short.
    await store.index.settled();
    return store;
  }

  /** Resolves once the index on disk reflects every change so far (tests, shutdown). */
  async flushIndex(): Promise<void> {
    await this.index.settled();
  }

  /** Follow what conversations hold (app/chat/search); returns how to stop. Listeners must not throw. */
  followContent(listener: ConversationContentListener): () => void {
    this.contentListeners.add(listener);
    return () => this.contentListeners.delete(listener);
  }

  /** The identity of a listed conversation's file as last read or written (what the indexes record). */
  fileIdentity(id: string): FileIdentity | undefined {
    return this.files.get(id);
  }

  /**
   * A listed conversation for search to read, with its file's identity: from memory when it is there, else read
   * and parsed without keeping it (a rebuild reads thousands). Undefined when it is gone or cannot be read: search
   * never moves a file aside; opening the conversation does, and says why.
   */
  async readForSearch(id: string): Promise<{ conversation: Conversation; file: FileIdentity } | undefined> {
    const cached = this.cache.get(id);
    const known = this.files.get(id);
    if (cached !== undefined && known !== undefined) return { conversation: cached, file: known };
    if (!this.summaries.has(id)) return undefined;
    try {
      // Stat first: a file changed while it is read is recorded as older, and indexed again at the next start.
      const file = fileIdentity(await stat(this.filePath(id)));
      const parsed = ConversationSchema.safeParse(JSON.parse(await readFile(this.filePath(id), 'utf8')));
      return parsed.success && parsed.data.id === id ? { conversation: parsed.data, file } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * What a search snippet reads of a conversation: the one in memory, else its file's JSON as it is (not checked
   * against the schema: search reads only its texts, looseSearchTexts); undefined when it is not listed or unreadable.
   */
  async readForSnippet(id: string): Promise<unknown> {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    if (!this.summaries.has(id)) return undefined;
    try {
      const raw: unknown = JSON.parse(await readFile(this.filePath(id), 'utf8'));
      return typeof raw === 'object' && raw !== null && (raw as { id?: unknown }).id === id ? raw : undefined;
    } catch {
      return undefined;
    }
  }

  /** One conversation's summary, if it is in the list. */
  summary(id: string): ConversationSummary | undefined {
    return this.summaries.get(id);
  }

  /** Pinned first, then newest first. */
  list(): ConversationSummary[] {
    return [...this.summaries.values()].sort(
      (a, b) =>
        Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt - a.updatedAt || a.id.localeCompare(b.id),
    );
  }

  /** Corrupt files found so far (each already moved aside). */
  problems(): ConversationProblem[] {
    return [...this.found];
  }

  async get(id: string): Promise<Conversation> {
    this.checkId(id);
    return this.enqueue(id, async () => structuredClone(await this.load(id)));
  }

  /** One saved tool result, whole (not a copy: the caller only reads it); undefined when no saved message holds it. */
  async toolResult(id: string, toolUseId: string): Promise<ChatToolResultBlock | undefined> {
    this.checkId(id);
    return this.enqueue(id, async () => {
      for (const message of (await this.load(id)).messages)
        for (const block of message.content)
          if (block.type === 'tool_result' && block.toolUseId === toolUseId) return block;
          else if (block.type === 'task_result' && block.result.toolUseId === toolUseId) return block.result;
      return undefined;
    });
  }

  async create(input: { model: string; title?: string }): Promise<Conversation> {
    if (input.model.trim() === '')
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.model-missing', {}), 'model');
    const time = this.now();
    const conversation: Conversation = {
      id: randomUUID(),
      title: input.title?.trim() ? this.checkTitle(input.title) : DEFAULT_CONVERSATION_TITLE,
      createdAt: time,
      updatedAt: time,
      model: input.model,
      messages: [],
      disabledServers: [],
      disabledTools: [],
    };
    return this.enqueue(conversation.id, async () => this.save(conversation));
  }

  async rename(id: string, title: string): Promise<Conversation> {
    const checked = this.checkTitle(title);
    // A new name is not activity: the conversation keeps its time and its place in the list.
    return this.update(id, (conversation) => ({ ...conversation, title: checked }), { touch: false });
  }

  /** Pin or unpin: kept with the conversation, so it survives a restart; not activity (the time stays). */
  async setPinned(id: string, pinned: boolean): Promise<Conversation> {
    // Unpinned leaves no key behind (JSON drops undefined): the file reads as it did before pinning.
    return this.update(id, (conversation) => ({ ...conversation, pinned: pinned || undefined }), { touch: false });
  }

  /**
   * Appends one completed message. The first message the person writes names
   * a conversation that still has the default title.
   */
  async appendMessage(id: string, message: ChatMessage): Promise<Conversation> {
    return this.update(id, (conversation) => {
      const named =
        conversation.messages.length === 0 &&
        conversation.title === DEFAULT_CONVERSATION_TITLE &&
        message.role === 'user';
      return {
        ...conversation,
        title: named ? autoTitle(messageText(message)) : conversation.title,
        messages: [...conversation.messages, message],
      };
    });
  }

  /** Marks the person's message `messageId` as failed (no reply came), or clears the mark; unknown ids change nothing. */
  async setFailed(id: string, messageId: string, failed: ChatFailed | undefined): Promise<Conversation> {
    return this.update(id, (conversation) => ({
      ...conversation,
      messages: conversation.messages.map((message) => {
        if (message.id !== messageId) return message;
        const { failed: _old, ...rest } = message;
        return failed === undefined ? rest : { ...rest, failed };
      }),
    }));
  }

  /** Replaces the whole history (retry and edit-and-resend cut it first); versions of positions it dropped go too. */
  async replaceMessages(id: string, messages: ChatMessage[]): Promise<Conversation> {
    return this.update(id, (conversation) => pruneForks({ ...conversation, messages: [...messages] }));
  }

  /**
   * The live path cut before message `messageId`, the tail from it kept as a version of that position (an edit of an
   * earlier message, a regenerated reply); the turn that follows writes the new version. Unknown ids: version-gone.
   */
  async branchAt(id: string, messageId: string): Promise<Conversation> {
    return this.update(id, (conversation) => {
      const index = conversation.messages.findIndex((message) => message.id === messageId);
      if (index === -1) throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.version-gone', {}));
      return branchAt(conversation, index);
    });
  }

  /** Version `version` of the position after message `after` ('' for the first) made live, in one write. */
  async switchVersion(id: string, after: string, version: number): Promise<Conversation> {
    return this.update(id, (conversation) => switchVersion(conversation, after, version), { touch: false });
  }

  async updateSettings(id: string, patch: ConversationSettingsPatch): Promise<Conversation> {
    if (patch.model !== undefined && patch.model.trim() === '')
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.model-empty', {}), 'model');
    let before: readonly string[] | undefined;
    const saved = await this.update(id, (conversation) => {
      before = conversation.loadedTools;
      return {
        ...conversation,
        ...(patch.model !== undefined ? { model: patch.model } : {}),
        ...(patch.disabledServers !== undefined ? { disabledServers: [...new Set(patch.disabledServers)] } : {}),
        ...(patch.disabledTools !== undefined ? { disabledTools: [...new Set(patch.disabledTools)] } : {}),
        ...(patch.toolSearch !== undefined ? { toolSearch: patch.toolSearch } : {}),
        ...(patch.reasoning !== undefined ? { reasoning: patch.reasoning } : {}),
        ...(patch.loadedTools !== undefined ? { loadedTools: [...new Set(patch.loadedTools)] } : {}),
        ...(patch.contextPolicy !== undefined ? { contextPolicy: patch.contextPolicy } : {}),
        ...(patch.backgroundTasks !== undefined ? { backgroundTasks: patch.backgroundTasks } : {}),
        ...(patch.contextCut !== undefined ? { contextCut: patch.contextCut ?? undefined } : {}),
        ...(patch.systemPrompt !== undefined ? { systemPrompt: nonBlank(patch.systemPrompt) } : {}),
        ...(patch.temperature !== undefined ? { temperature: patch.temperature ?? undefined } : {}),
        ...(patch.maxTokens !== undefined ? { maxTokens: patch.maxTokens ?? undefined } : {}),
      };
    });
    if (patch.loadedTools !== undefined) this.tellLoadedTools(saved, before);
    return saved;
  }

  /** Change the tools tool search loaded from what is stored now (two loads in one reply must not undo each other). */
  async changeLoadedTools(id: string, change: (loaded: readonly string[]) => string[]): Promise<Conversation> {
    let before: readonly string[] | undefined;
    const saved = await this.update(id, (conversation) => ({
      ...conversation,
      loadedTools: [...new Set(change((before = conversation.loadedTools ?? [])))],
    }));
    this.tellLoadedTools(saved, before);
    return saved;
  }

  /** Only a real change is told: the renderer's loaded-tools strip follows these instead of listing every tool again. */
  private tellLoadedTools(saved: Conversation, before: readonly string[] = []): void {
    const after = saved.loadedTools ?? [];
    if (before.length !== after.length || before.some((key, i) => key !== after[i]))
      this.options.onLoadedToolsChange?.({ id: saved.id, loadedTools: [...after] });
  }

  /** Moves the file to the trash folder; `restore` brings it back. */
  async delete(id: string): Promise<void> {
    this.checkId(id);
    await this.enqueue(id, async () => {
      if (!this.summaries.has(id))
        throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.not-found', { id }));
      try {
        await rename(this.filePath(id), this.trashPath(id));
        await this.results.moveToTrash(id);
      } catch (error) {
        if (!isMissing(error))
          throw HostError.coded(
            'IO_ERROR',
            conversationError('conversation-errors.trash-move-failed', { id, detail: errorMessage(error) }),
          );
      }
      this.forget(id);
      this.changed({ changed: [], removed: [id] });
    });
  }

  async restore(id: string): Promise<ConversationSummary> {
    this.checkId(id);
    return this.enqueue(id, async () => {
      if (this.summaries.has(id))
        throw HostError.coded('CONFLICT', conversationError('conversation-errors.not-in-trash', { id }));
      try {
        await stat(this.trashPath(id));
      } catch (error) {
        if (isMissing(error))
          throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.not-deleted', { id }));
        throw HostError.coded(
          'IO_ERROR',
          conversationError('conversation-errors.trash-unreadable', { detail: errorMessage(error) }),
        );
      }
      await rename(this.trashPath(id), this.filePath(id));
      await this.results.restoreFromTrash(id);
      const conversation = await this.readConversation(id, false);
      const summary = summarizeConversation(conversation);
      this.summaries.set(id, summary);
      this.changed({ changed: [summary], removed: [] });
      this.tellSaved(conversation);
      return summary;
    });
  }

  /** Deleted conversations that can be restored, newest first. */
  async listTrash(): Promise<ConversationSummary[]> {
    const summaries: ConversationSummary[] = [];
    for (const name of await readdir(this.trashDir)) {
      const match = /^(.+)\.json$/.exec(name);
      if (match?.[1] === undefined) continue;
      try {
        const parsed = ConversationSchema.safeParse(JSON.parse(await readFile(join(this.trashDir, name), 'utf8')));
        if (parsed.success) summaries.push(summarizeConversation(parsed.data));
      } catch {
        // An unreadable deleted file is not offered for restore; it stays where it is.
      }
    }
    return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  private filePath(id: string): string {
    return join(this.conversationsDir, `${id}.json`);
  }

  private trashPath(id: string): string {
    return join(this.trashDir, `${id}.json`);
  }

  private checkId(id: string): void {
    if (!ConversationIdSchema.safeParse(id).success)
      throw HostError.coded(
        'INVALID_INPUT',
        conversationError('conversation-errors.bad-id', { id: JSON.stringify(id) }),
        'id',
      );
  }

  private checkTitle(title: string): string {
    const trimmed = title.trim();
    if (trimmed === '')
      throw HostError.coded('INVALID_INPUT', conversationError('conversation-errors.title-missing', {}), 'title');
    if (trimmed.length > TITLE_MAX)
      throw HostError.coded(
        'INVALID_INPUT',
        conversationError('conversation-errors.title-too-long', { max: TITLE_MAX }),
        'title',
      );
    return trimmed;
  }

  private enqueue<T>(id: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(operation, operation);
    const settled = run.catch(() => undefined);
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return run;
  }

  private async update(
    id: string,
    change: (conversation: Conversation) => Conversation,
    { touch = true } = {},
  ): Promise<Conversation> {
    this.checkId(id);
    return this.enqueue(id, async () => {
      const current = await this.load(id);
      return this.save({
        ...change(current),
        updatedAt: touch ? Math.max(this.now(), current.updatedAt) : current.updatedAt,
      });
    });
  }

  private async load(id: string): Promise<Conversation> {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    if (!this.summaries.has(id))
      throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.not-found', { id }));
    return this.readConversation(id, true);
  }

  private report(id: string, words: CodedText, movedTo?: string): HostError {
    const problem: ConversationProblem = { id, ...(movedTo === undefined ? {} : { movedTo }), message: words.text };
    this.found.push(problem);
    this.options.onProblem?.(problem);
    return HostError.coded('IO_ERROR', words);
  }

  /**
   * Parse one file; a corrupt one is moved aside, reported, and answered with
   * IO_ERROR. `remember` keeps it in memory (not at open, to keep memory small).
   */
  private async readConversation(id: string, remember: boolean): Promise<Conversation> {
    const path = this.filePath(id);
    let text: string;
    try {
      // Stat before reading: if the file changes in between, the index records the older identity and the next start reads it again.
      const identity = fileIdentity(await stat(path));
      text = await readFile(path, 'utf8');
      this.files.set(id, identity);
    } catch (error) {
      if (isMissing(error)) {
        this.forget(id);
        throw HostError.coded('NOT_FOUND', conversationError('conversation-errors.not-found', { id }));
      }
      throw this.report(
        id,
        conversationError('conversation-errors.file-unreadable', { id, detail: errorMessage(error) }),
      );
    }
    let problem: ConversationFileProblem;
    let detail: string;
    try {
      const parsed = ConversationSchema.safeParse(JSON.parse(text));
      if (parsed.success && parsed.data.id === id) {
        if (!remember) return parsed.data;
        // Big results come back whole from their files; one gone or damaged leaves its preview, never a failed load.
        const whole = await this.results.hydrate(parsed.data);
        this.cache.set(id, whole);
        return whole;
      }
      problem = parsed.success ? 'otherId' : 'invalid';
      detail = parsed.success
        ? parsed.data.id
        : parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
            .join('; ');
    } catch (error) {
      problem = 'notJson';
      detail = errorMessage(error);
    }
    const movedTo = `${path}.corrupt-${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}`;
    this.forget(id);
    try {
      await rename(path, movedTo);
    } catch (error) {
      // Left in place and out of the list, so nothing writes over it; one bad file must not stop start-up.
      throw this.report(
        id,
        conversationError('conversation-errors.file-left', { id, problem, detail, moveError: errorMessage(error) }),
      );
    }
    throw this.report(
      id,
      conversationError('conversation-errors.file-kept-aside', { id, problem, detail, movedTo }),
      movedTo,
    );
  }

  private async save(conversation: Conversation): Promise<Conversation> {
    const checked = ConversationSchema.parse(conversation);
    // The file holds big results' previews; each whole result is written once beside it.
    const onDisk = await this.results.externalize(checked);
    await atomicWriteFile(this.filePath(checked.id), `${JSON.stringify(onDisk, null, 1)}\n`, 0o600);
    this.files.set(checked.id, fileIdentity(await stat(this.filePath(checked.id))));
    this.cache.set(checked.id, checked);
    const summary = summarizeConversation(checked);
    this.summaries.set(checked.id, summary);
    this.changed({ changed: [summary], removed: [] });
    this.tellSaved(checked);
    return structuredClone(checked);
  }

  private forget(id: string): void {
    const listed = this.summaries.delete(id);
    this.files.delete(id);
    this.cache.delete(id);
    if (listed) for (const listener of this.contentListeners) listener.removed(id);
  }

  private tellSaved(conversation: Conversation): void {
    const file = this.files.get(conversation.id);
    if (file !== undefined) for (const listener of this.contentListeners) listener.saved(conversation, file);
  }

  private indexEntries(): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (const [id, summary] of this.summaries) {
      const file = this.files.get(id);
      if (file !== undefined) entries.push({ file, summary });
    }
    return entries;
  }

  private changed(delta: ConversationsDelta): void {
    this.index.schedule();
    this.options.onChange?.(delta);
  }
}

/** A prompt of only spaces is no prompt: the field goes rather than send blank text. */
function nonBlank(text: string | null): string | undefined {
  return text === null || text.trim() === '' ? undefined : text;
}
