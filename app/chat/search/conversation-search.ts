import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Conversation, ConversationSummary } from '../../../shared/domain/chat';
import { errorMessage } from '../../../shared/error-message';
import { atomicWriteFile } from '../../config/atomic-write';
import type { FileIdentity } from '../conversation-index';
import type { ConversationContentListener } from '../conversation-store';
import { FullTextIndex, FULL_TEXT_VERSION } from './full-text-index';
import type { QueryTerm } from './full-text-index';
import { findSnippet } from './search-snippet';
import type { SearchSnippet } from './search-snippet';
import { looseSearchTexts, searchTexts } from './search-text';
import { collectTerms, isCjkTerm, tokenize } from './search-tokens';

/** Beside the conversations; the '.' keeps it from ever being read as one (no id has a dot). */
export const SEARCH_INDEX_FILE_NAME = `search.v${FULL_TEXT_VERSION}.json`;
/** The longest query searched (longer ones are cut here), and the most words of it used. */
export const MAX_QUERY_CHARS = 200;
export const MAX_QUERY_TERMS = 16;
/**
 * How long after a change the index file is written. Long, as the write serializes the whole index (tens of ms at
 * 5,000 conversations) and must not land in the middle of a turn; a stale file only costs re-indexing the
 * conversations saved since, found by their file identity at the next start.
 */
export const SEARCH_WRITE_DELAY_MS = 10_000;
/** Saves are indexed this long after the last one: a turn's burst of saves costs one pass, after the request left. */
const INDEX_DELAY_MS = 300;

/** What search needs of the conversation store (app/chat/conversation-store.ts). */
export interface SearchableConversations {
  list(): ConversationSummary[];
  summary(id: string): ConversationSummary | undefined;
  fileIdentity(id: string): FileIdentity | undefined;
  readForSearch(id: string): Promise<{ conversation: Conversation; file: FileIdentity } | undefined>;
  /** A conversation for its snippet: in memory, or its file's JSON unchecked (read with looseSearchTexts). */
  readForSnippet(id: string): Promise<unknown>;
  followContent(listener: ConversationContentListener): () => void;
}

export interface ConversationSearchOptions {
  conversationsDir: string;
  store: SearchableConversations;
  /** Rebuilds, repairs and failed writes, in plain words. */
  log: (level: 'info' | 'warning', text: string) => void;
  writeDelayMs?: number;
}

/** One conversation a query found. */
export interface SearchHit {
  id: string;
  title: string;
  updatedAt: number;
  /** Absent when only the title matched. */
  snippet?: SearchSnippet;
}

export interface SearchResult {
  hits: SearchHit[];
  /** How many conversations match in all (hits holds the first `limit`). */
  total: number;
  /** False while conversations are still being indexed (at the first start, or after the index file was lost). */
  complete: boolean;
}

/** The words of a query; the last one, still being typed, matches as a prefix. */
export function parseQuery(query: string): QueryTerm[] {
  const text = query.slice(0, MAX_QUERY_CHARS);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  tokenize(text, (term, _start, end) => {
    if (terms.length >= MAX_QUERY_TERMS || seen.has(term)) return;
    seen.add(term);
    terms.push({ term, prefix: end === text.length });
  });
  return terms;
}

function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** Every term of a conversation: its title and each message's words and tool text. */
export function conversationTerms(conversation: Pick<Conversation, 'title' | 'messages'>): Set<string> {
  const terms = new Set<string>();
  collectTerms(conversation.title, terms);
  for (const { text } of searchTexts(conversation.messages)) collectTerms(text, terms);
  return terms;
}

/**
 * Full-text search over every conversation: an inverted index (full-text-index.ts) kept in
 * `conversations/search.v1.json`, loaded at start and checked against the conversations' file identities (the
 * conversations index's), so only files changed since it was written are read again; missing or corrupt, it is
 * rebuilt in the background with a log line, and searches meanwhile say they are not complete. Saves and deletes
 * update it as they happen (the store's content listener); the file is written atomically after changes settle.
 */
export class ConversationSearch {
  private index = new FullTextIndex();
  /** Saved or removed since the last indexing pass (null: removed); the newest save of each wins. */
  private readonly pending = new Map<string, { conversation: Conversation; file: FileIdentity } | null>();
  /** Saved this session: a background re-read must not index an older copy over them. */
  private readonly touched = new Set<string>();
  private indexTimer: ReturnType<typeof setTimeout> | undefined;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private catchingUp = 0;
  private closed = false;
  private readonly unfollow: () => void;
  private readonly path: string;
  /** Resolves when the file has been read (or found unusable) and checked against the conversations. */
  readonly loaded: Promise<void>;
  /** Resolves when every conversation the file did not describe has been indexed. */
  readonly caughtUp: Promise<void>;

  constructor(private readonly options: ConversationSearchOptions) {
    this.path = join(options.conversationsDir, SEARCH_INDEX_FILE_NAME);
    // Follow saves from the first moment: one made while the file is read is indexed after it.
    this.unfollow = options.store.followContent({
      saved: (conversation, file) => this.queue(conversation.id, { conversation, file }),
      removed: (id) => this.queue(id, null),
    });
    let reindex: string[] = [];
    this.loaded = this.load().then((toRead) => {
      reindex = toRead;
    });
    this.caughtUp = this.loaded.then(() => this.catchUp(reindex));
  }

  /** Conversations holding every word of `query`, best first, with a snippet around the first hit. */
  async search(query: string, limit: number): Promise<SearchResult> {
    await this.loaded;
    this.indexPending();
    const terms = parseQuery(query);
    if (terms.length === 0) return { hits: [], total: 0, complete: this.catchingUp === 0 };
    const { ids, terms: matched } = this.index.match(terms);
    const ranked: { summary: ConversationSummary; inTitle: boolean }[] = [];
    for (const id of ids) {
      const summary = this.options.store.summary(id);
      if (summary !== undefined) ranked.push({ summary, inTitle: titleHolds(summary.title, terms) });
    }
    // A title holding every word first, then the newest: what a person looking for "that conversation" expects.
    ranked.sort(
      (a, b) =>
        Number(b.inTitle) - Number(a.inTitle) ||
        b.summary.updatedAt - a.summary.updatedAt ||
        a.summary.id.localeCompare(b.summary.id),
    );
    const hits = await Promise.all(
      ranked.slice(0, limit).map(async ({ summary }): Promise<SearchHit> => {
        const read = await this.options.store.readForSnippet(summary.id);
        const snippet = read === undefined ? undefined : findSnippet(looseSearchTexts(read), matched);
        return {
          id: summary.id,
          title: summary.title,
          updatedAt: summary.updatedAt,
          ...(snippet !== undefined ? { snippet } : {}),
        };
      }),
    );
    return { hits, total: ranked.length, complete: this.catchingUp === 0 };
  }

  /** Indexes what is pending and writes the file now (shutdown, tests). */
  async flush(): Promise<void> {
    await this.loaded;
    this.indexPending();
    if (this.writeTimer !== undefined) {
      clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
    }
    while (this.writing !== undefined) await this.writing;
    if (this.dirty) await this.write();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unfollow();
    await this.caughtUp;
    await this.flush();
  }

  private queue(id: string, change: { conversation: Conversation; file: FileIdentity } | null): void {
    this.touched.add(id);
    this.pending.set(id, change);
    this.indexTimer ??= setTimeout(() => {
      this.indexTimer = undefined;
      // Before the file is read there is nothing to add to: the pass after loading takes them.
      void this.loaded.then(() => this.indexPending());
    }, INDEX_DELAY_MS);
  }

  private indexPending(): void {
    if (this.indexTimer !== undefined) {
      clearTimeout(this.indexTimer);
      this.indexTimer = undefined;
    }
    if (this.pending.size === 0) return;
    for (const [id, change] of this.pending) {
      if (change === null) this.index.remove(id);
      else this.index.set(id, conversationTerms(change.conversation), change.file);
    }
    this.pending.clear();
    this.changed();
  }

  /** Reads the file and drops what no longer matches the conversations; returns the ids to index again. */
  private async load(): Promise<string[]> {
    const { store, log } = this.options;
    let why: string | undefined;
    try {
      const parsed = FullTextIndex.parse(await readFile(this.path));
      if (typeof parsed === 'string') why = `the search index file ${this.path} could not be used: ${parsed}`;
      else this.index = parsed;
    } catch (error) {
      why =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? undefined
          : `the search index file ${this.path} could not be read (${errorMessage(error)})`;
    }
    const listed = store.list();
    const toRead: string[] = [];
    for (const { id } of listed) if (!sameFile(this.index.fileOf(id), store.fileIdentity(id))) toRead.push(id);
    let gone = 0;
    if (this.index.size > listed.length - toRead.length)
      for (const id of this.index.documentIds())
        if (store.summary(id) === undefined && this.index.remove(id)) gone += 1;
    if (why !== undefined) log('warning', `Rebuilding search over ${listed.length} conversations: ${why}`);
    else if (this.index.size === 0 && toRead.length > 0)
      log('info', `Building the search index over ${toRead.length} conversations`);
    else if (toRead.length > 0 || gone > 0)
      log(
        'info',
        `The search index was out of date (${toRead.length} conversations new or changed, ${gone} gone); updating it`,
      );
    if (why !== undefined || gone > 0) this.changed();
    return toRead;
  }

  /** Indexes conversations one at a time, each read off the event loop's back, so Berth answers meanwhile. */
  private async catchUp(ids: readonly string[]): Promise<void> {
    this.catchingUp = ids.length;
    for (const id of ids) {
      if (this.closed) break;
      if (!this.touched.has(id)) {
        const read = await this.options.store.readForSearch(id);
        if (read !== undefined && !this.touched.has(id)) {
          this.index.set(id, conversationTerms(read.conversation), read.file);
          this.changed();
        }
      }
      this.catchingUp -= 1;
    }
    this.catchingUp = 0;
  }

  private changed(): void {
    this.dirty = true;
    if (this.closed || this.writeTimer !== undefined) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      void this.write();
    }, this.options.writeDelayMs ?? SEARCH_WRITE_DELAY_MS);
  }

  private write(): Promise<void> {
    this.writing ??= (async () => {
      this.dirty = false;
      try {
        // Never recreate a conversations folder that was removed (atomicWriteFile would).
        await stat(dirname(this.path));
        await atomicWriteFile(this.path, this.index.serialize());
      } catch (error) {
        this.options.log(
          'warning',
          `The search index could not be written (${errorMessage(error)}); it will be brought up to date at the next start`,
        );
      }
    })().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }
}

/** Whether a title holds every query term (ranked first). */
function titleHolds(title: string, terms: readonly QueryTerm[]): boolean {
  const words: string[] = [];
  tokenize(title, (term) => words.push(term));
  return terms.every(({ term, prefix }) =>
    words.some(
      (word) =>
        word === term ||
        (prefix && word.startsWith(term)) ||
        (isCjkTerm(term) && term.length === 1 && word.includes(term)),
    ),
  );
}
