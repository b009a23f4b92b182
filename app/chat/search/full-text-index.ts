import { CONVERSATION_ID_PATTERN } from '../../../shared/domain/chat';
import type { FileIdentity } from '../conversation-index';
import { isCjkTerm } from './search-tokens';

/** The file format's version: another one is set aside and rebuilt. */
export const FULL_TEXT_VERSION = 1;

/** One term of a query: whole, or (the word being typed) any term that starts with it. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
}

/**
 * An inverted index from terms to conversations: which conversations hold each
 * term, and for each conversation the file it was indexed from (as the
 * conversations index records it), so a file changed behind Berth's back is
 * indexed again. Documents are numbered; a number freed by a delete is reused.
 */
export class FullTextIndex {
  private ids: (string | undefined)[] = [];
  private files: (FileIdentity | undefined)[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly free: number[] = [];
  private readonly postings = new Map<string, number[]>();
  /**
   * Each document's terms, for updates. Built on the first update after a load, not at load: a start that only
   * searches never pays for it.
   */
  private forward: Map<number, readonly string[]> | undefined = new Map();

  get size(): number {
    return this.numbers.size;
  }

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  /** The file identity this conversation was indexed from. */
  fileOf(id: string): FileIdentity | undefined {
    const number = this.numbers.get(id);
    return number === undefined ? undefined : this.files[number];
  }

  documentIds(): string[] {
    return [...this.numbers.keys()];
  }

  /** Indexes a conversation's terms (replacing what it had). */
  set(id: string, terms: ReadonlySet<string>, file: FileIdentity): void {
    const forward = this.forwardIndex();
    let number = this.numbers.get(id);
    const before = number === undefined ? undefined : forward.get(number);
    if (number === undefined) {
      number = this.free.pop() ?? this.ids.length;
      this.numbers.set(id, number);
      this.ids[number] = id;
    }
    this.files[number] = file;
    if (before !== undefined) for (const term of before) if (!terms.has(term)) this.unpost(term, number);
    const previous = before === undefined ? undefined : new Set(before);
    for (const term of terms) {
      if (previous?.has(term)) continue;
      const list = this.postings.get(term);
      if (list === undefined) this.postings.set(term, [number]);
      else list.push(number);
    }
    forward.set(number, [...terms]);
  }

  remove(id: string): boolean {
    const number = this.numbers.get(id);
    if (number === undefined) return false;
    const forward = this.forwardIndex();
    for (const term of forward.get(number) ?? []) this.unpost(term, number);
    forward.delete(number);
    this.numbers.delete(id);
    this.ids[number] = undefined;
    this.files[number] = undefined;
    this.free.push(number);
    return true;
  }

  /**
   * The conversations holding every term (a prefix term: any term it starts; a single CJK character: any
   * bigram holding it), and the terms of the index that matched, for highlighting.
   */
  match(query: readonly QueryTerm[]): { ids: string[]; terms: Set<string> } {
    const matched = new Set<string>();
    if (query.length === 0) return { ids: [], terms: matched };
    // How many query terms each document holds so far; `seen` keeps a document from counting one query term twice.
    const counts = new Uint16Array(this.ids.length);
    const seen = new Int32Array(this.ids.length).fill(-1);
    for (let position = 0; position < query.length; position += 1) {
      for (const term of this.expand(query[position]!)) {
        const list = this.postings.get(term);
        if (list === undefined || list.length === 0) continue;
        matched.add(term);
        for (const number of list) {
          if (seen[number] === position || counts[number] !== position) continue;
          seen[number] = position;
          counts[number] = position + 1;
        }
      }
    }
    const ids: string[] = [];
    for (let number = 0; number < counts.length; number += 1)
      if (counts[number] === query.length) ids.push(this.ids[number]!);
    return { ids, terms: matched };
  }

  /** The index terms one query term stands for. */
  private expand({ term, prefix }: QueryTerm): string[] {
    const lone = isCjkTerm(term) && [...term].length === 1;
    if (!prefix && !lone) return [term];
    const found: string[] = [];
    for (const candidate of this.postings.keys())
      if (lone ? candidate.includes(term) : candidate.startsWith(term)) found.push(candidate);
    return found;
  }

  private unpost(term: string, number: number): void {
    const list = this.postings.get(term);
    if (list === undefined) return;
    const at = list.indexOf(number);
    if (at < 0) return;
    list[at] = list[list.length - 1]!;
    list.pop();
    if (list.length === 0) this.postings.delete(term);
  }

  private forwardIndex(): Map<number, readonly string[]> {
    if (this.forward !== undefined) return this.forward;
    const lists = new Map<number, string[]>();
    for (const [term, list] of this.postings)
      for (const number of list) {
        const terms = lists.get(number);
        if (terms === undefined) lists.set(number, [term]);
        else terms.push(term);
      }
    this.forward = lists;
    return lists;
  }

  /** The index as its file holds it: documents renumbered without gaps, each term once. */
  serialize(): string {
    const renumber = new Int32Array(this.ids.length).fill(-1);
    const docs: string[] = [];
    for (let number = 0; number < this.ids.length; number += 1) {
      const id = this.ids[number];
      const file = this.files[number];
      if (id === undefined || file === undefined) continue;
      renumber[number] = docs.length;
      docs.push(JSON.stringify([id, file.size, file.mtimeMs, file.ino]));
    }
    const terms: string[] = [];
    const postings: string[] = [];
    for (const [term, list] of this.postings) {
      if (list.length === 0) continue;
      terms.push(JSON.stringify(term));
      postings.push(`[${list.map((number) => renumber[number]).join(',')}]`);
    }
    return `{"version":${FULL_TEXT_VERSION},"docs":[${docs.join(',')}],"terms":[${terms.join(',')}],"postings":[${postings.join(',')}]}`;
  }

  /** The index a file held, or why it cannot be used (then it is rebuilt from the conversations). */
  static parse(text: string): FullTextIndex | string {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object';
    const { version, docs, terms, postings } = value as Record<string, unknown>;
    if (version !== FULL_TEXT_VERSION)
      return `it is version ${JSON.stringify(version) ?? 'missing'}, this Berth reads ${FULL_TEXT_VERSION}`;
    if (!Array.isArray(docs) || !Array.isArray(terms) || !Array.isArray(postings))
      return 'it lacks its lists of documents, terms or postings';
    if (terms.length !== postings.length) return 'its terms and postings do not pair up';
    const index = new FullTextIndex();
    // Checked by hand, in plain loops: the file holds millions of numbers and is read at every start.
    for (let number = 0; number < docs.length; number += 1) {
      const doc: unknown = docs[number];
      if (!Array.isArray(doc) || doc.length !== 4) return `document ${number} is not [id, size, mtime, inode]`;
      const [id, size, mtimeMs, ino] = doc as unknown[];
      if (typeof id !== 'string' || !CONVERSATION_ID_PATTERN.test(id) || index.numbers.has(id))
        return `document ${number} has no valid id, or one already listed`;
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof ino !== 'number')
        return `document ${number} has no file size, mtime or inode`;
      index.numbers.set(id, number);
      index.ids.push(id);
      index.files.push({ size, mtimeMs, ino });
    }
    const count = docs.length;
    for (let position = 0; position < terms.length; position += 1) {
      const term: unknown = terms[position];
      const list: unknown = postings[position];
      if (typeof term !== 'string' || term === '' || index.postings.has(term))
        return `term ${position} is not text, or is listed twice`;
      if (!Array.isArray(list)) return `the postings of term ${position} are not a list`;
      for (let at = 0; at < list.length; at += 1) {
        const number: unknown = list[at];
        if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number >= count)
          return `the postings of term ${position} name a document that is not listed`;
      }
      index.postings.set(term, list as number[]);
    }
    index.forward = undefined;
    return index;
  }
}
