import { CONVERSATION_ID_PATTERN } from '../../../shared/domain/chat';
import type { FileIdentity } from '../conversation-index';
import { isCjkTerm } from './search-tokens';

/** The file format's version: another one is set aside and rebuilt. */
export const FULL_TEXT_VERSION = 1;
/** The file's first bytes: anything else is not a search index of this format. */
const MAGIC = 'BERTH-SEARCH-1\n';

/** One term of a query: whole, or (the word being typed) any term that starts with it. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
}

type Ids = Uint32Array | number[];
const EMPTY: Ids = new Uint32Array(0);

/**
 * An inverted index from terms to conversations, with each conversation's terms (to update it) and the file it
 * was indexed from (as the conversations index records it, so a file changed behind Berth's back is indexed
 * again). Terms and documents are numbered. Its file is binary: a JSON header (documents), the terms as one
 * string, then every posting and forward list as 32-bit numbers, so a load is one read, one split and views into
 * one buffer — a JSON file of the same index took ~0.6 s to parse at 5,000 conversations. Lists loaded from the
 * file stay views until an update changes them (then they become plain arrays).
 */
export class FullTextIndex {
  private ids: (string | undefined)[] = [];
  private files: (FileIdentity | undefined)[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly free: number[] = [];
  /** By term number. The first `sorted` are in code-unit order (as the file holds them): found by binary search. */
  private terms: string[] = [];
  private sorted = 0;
  /** Terms added since the load (numbers from `sorted` on). */
  private readonly termNumbers = new Map<string, number>();
  /** By term number: the documents holding it. */
  private postings: Ids[] = [];
  /** By document number: its term numbers. */
  private forward: Ids[] = [];

  get size(): number {
    return this.numbers.size;
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
    let number = this.numbers.get(id);
    const wanted = new Set<number>();
    for (const term of terms) wanted.add(this.termNumber(term));
    if (number === undefined) {
      number = this.free.pop() ?? this.ids.length;
      this.numbers.set(id, number);
      this.ids[number] = id;
      this.forward[number] = EMPTY;
    }
    this.files[number] = file;
    const before = this.forward[number] ?? EMPTY;
    const had = new Set<number>();
    for (const term of before) {
      had.add(term);
      if (!wanted.has(term)) this.unpost(term, number);
    }
    for (const term of wanted) if (!had.has(term)) this.post(term, number);
    this.forward[number] = [...wanted];
  }

  remove(id: string): boolean {
    const number = this.numbers.get(id);
    if (number === undefined) return false;
    for (const term of this.forward[number] ?? EMPTY) this.unpost(term, number);
    this.forward[number] = EMPTY;
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
    // How many query terms each document holds so far: a document counts for a term only if it held every earlier one.
    const counts = new Uint16Array(this.ids.length);
    for (let position = 0; position < query.length; position += 1) {
      for (const term of this.expand(query[position]!)) {
        const list = this.postings[term]!;
        if (list.length === 0) continue;
        matched.add(this.terms[term]!);
        for (const number of list) if (counts[number] === position) counts[number] = position + 1;
      }
    }
    const ids: string[] = [];
    for (let number = 0; number < counts.length; number += 1)
      if (counts[number] === query.length) ids.push(this.ids[number]!);
    return { ids, terms: matched };
  }

  /** The term numbers one query term stands for. */
  private expand({ term, prefix }: QueryTerm): number[] {
    const lone = isCjkTerm(term) && [...term].length === 1;
    if (!prefix && !lone) {
      const number = this.find(term);
      return number === undefined ? [] : [number];
    }
    const found: number[] = [];
    const terms = this.terms;
    let from = 0;
    if (!lone) {
      // The sorted terms starting with the prefix are one run from its lower bound; only the added ones are scanned.
      for (let number = this.lowerBound(term); number < this.sorted && terms[number]!.startsWith(term); number += 1)
        found.push(number);
      from = this.sorted;
    }
    for (let number = from; number < terms.length; number += 1) {
      const candidate = terms[number]!;
      if (lone ? candidate.includes(term) : candidate.startsWith(term)) found.push(number);
    }
    return found;
  }

  /** The first sorted term not before `term`. */
  private lowerBound(term: string): number {
    let low = 0;
    let high = this.sorted;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.terms[middle]! < term) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private find(term: string): number | undefined {
    const at = this.lowerBound(term);
    return at < this.sorted && this.terms[at] === term ? at : this.termNumbers.get(term);
  }

  private termNumber(term: string): number {
    let number = this.find(term);
    if (number === undefined) {
      number = this.terms.length;
      this.terms.push(term);
      this.termNumbers.set(term, number);
      this.postings.push([]);
    }
    return number;
  }

  private post(term: number, number: number): void {
    const list = this.postings[term]!;
    if (Array.isArray(list)) list.push(number);
    else this.postings[term] = [...list, number];
  }

  private unpost(term: number, number: number): void {
    const list = this.postings[term]!;
    const at = list.indexOf(number);
    if (at < 0) return;
    const plain = Array.isArray(list) ? list : [...list];
    plain[at] = plain[plain.length - 1]!;
    plain.pop();
    this.postings[term] = plain;
  }

  /** Term numbers in code-unit order of their terms: the sorted run merged with the (few) terms added since. */
  private termOrder(): number[] {
    const added: number[] = [];
    for (let number = this.sorted; number < this.terms.length; number += 1) added.push(number);
    added.sort((a, b) => (this.terms[a]! < this.terms[b]! ? -1 : 1));
    const order: number[] = [];
    let next = 0;
    for (let number = 0; number < this.sorted; number += 1) {
      while (next < added.length && this.terms[added[next]!]! < this.terms[number]!) order.push(added[next++]!);
      order.push(number);
    }
    while (next < added.length) order.push(added[next++]!);
    return order;
  }

  /** The index as its file holds it: documents and terms renumbered without gaps, terms sorted. */
  serialize(): Buffer {
    const docRenumber = new Int32Array(this.ids.length).fill(-1);
    const docs: [string, number, number, number][] = [];
    const forward: Ids[] = [];
    for (let number = 0; number < this.ids.length; number += 1) {
      const id = this.ids[number];
      const file = this.files[number];
      if (id === undefined || file === undefined) continue;
      docRenumber[number] = docs.length;
      docs.push([id, file.size, file.mtimeMs, file.ino]);
      forward.push(this.forward[number] ?? EMPTY);
    }
    const termRenumber = new Int32Array(this.terms.length).fill(-1);
    const terms: string[] = [];
    const postings: Ids[] = [];
    for (const number of this.termOrder()) {
      const list = this.postings[number]!;
      if (list.length === 0) continue;
      termRenumber[number] = terms.length;
      terms.push(this.terms[number]!);
      postings.push(list);
    }
    let total = 0;
    for (const list of postings) total += list.length;
    for (const list of forward) total += list.length;
    // Lengths of every list, then the lists: postings (document numbers), then forward lists (term numbers).
    const numbers = new Uint32Array(postings.length + forward.length + total);
    let at = 0;
    for (const list of postings) numbers[at++] = list.length;
    for (const list of forward) numbers[at++] = list.length;
    for (const list of postings) for (const number of list) numbers[at++] = docRenumber[number]!;
    for (const list of forward) for (const term of list) numbers[at++] = termRenumber[term]!;
    const header = Buffer.from(
      `${MAGIC}${JSON.stringify({ version: FULL_TEXT_VERSION, docs, termCount: terms.length })}\n`,
      'utf8',
    );
    const text = Buffer.from(terms.join('\n'), 'utf8');
    const lengths = Buffer.alloc(8);
    lengths.writeUInt32LE(header.length, 0);
    lengths.writeUInt32LE(text.length, 4);
    // The numbers start at a multiple of 4, so a load can view them in place.
    const padding = Buffer.alloc((4 - ((8 + header.length + text.length) % 4)) % 4);
    // In this machine's byte order, read back as a view (the file never leaves the config dir; a foreign one fails the checks and is rebuilt).
    return Buffer.concat([lengths, header, text, padding, Buffer.from(numbers.buffer)]);
  }

  /** The index a file held, or why it cannot be used (then it is rebuilt from the conversations). */
  static parse(bytes: Buffer): FullTextIndex | string {
    if (bytes.length < 8) return 'it is too short to be a search index';
    const headerLength = bytes.readUInt32LE(0);
    const textLength = bytes.readUInt32LE(4);
    if (8 + headerLength + textLength > bytes.length) return 'it is cut short';
    const headerText = bytes.toString('utf8', 8, 8 + headerLength);
    if (!headerText.startsWith(MAGIC)) return 'it is not a search index of this Berth';
    let header: unknown;
    try {
      header = JSON.parse(headerText.slice(MAGIC.length));
    } catch (error) {
      return `its header is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    }
    if (typeof header !== 'object' || header === null) return 'its header is not an object';
    const { version, docs, termCount } = header as Record<string, unknown>;
    if (version !== FULL_TEXT_VERSION)
      return `it is version ${JSON.stringify(version) ?? 'missing'}, this Berth reads ${FULL_TEXT_VERSION}`;
    if (!Array.isArray(docs) || !Number.isSafeInteger(termCount) || (termCount as number) < 0)
      return 'its header lacks the documents or the term count';
    const index = new FullTextIndex();
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
    const textStart = 8 + headerLength;
    const terms = textLength === 0 ? [] : bytes.toString('utf8', textStart, textStart + textLength).split('\n');
    if (terms.length !== termCount) return `it lists ${terms.length} terms where its header says ${termCount}`;
    const start = textStart + textLength + ((4 - ((textStart + textLength) % 4)) % 4);
    if ((bytes.length - start) % 4 !== 0) return 'its lists are cut short';
    // A view needs 4-byte alignment in memory; a buffer from a pool may not have it.
    const aligned = (bytes.byteOffset + start) % 4 === 0 ? bytes : Buffer.from(bytes);
    const offset = aligned === bytes ? bytes.byteOffset + start : start;
    const numbers = new Uint32Array(aligned.buffer, offset, (bytes.length - start) / 4);
    const lists = terms.length + docs.length;
    if (numbers.length < lists) return 'its lists are cut short';
    let at = lists;
    for (let list = 0; list < lists; list += 1) {
      const length = numbers[list]!;
      if (at + length > numbers.length) return 'its lists are cut short';
      const view = numbers.subarray(at, at + length);
      // Checked in a plain loop: millions of numbers, read at every start.
      const limit = list < terms.length ? docs.length : terms.length;
      for (let i = 0; i < view.length; i += 1) if (view[i]! >= limit) return 'a list names something not listed';
      if (list < terms.length) index.postings.push(view);
      else index.forward.push(view);
      at += length;
    }
    if (at !== numbers.length) return 'it has bytes after its lists';
    for (let number = 0; number < terms.length; number += 1) {
      // Sorted and distinct: what binary search relies on.
      if (terms[number] === '' || (number > 0 && !(terms[number - 1]! < terms[number]!)))
        return `term ${number} is empty or out of order`;
    }
    index.terms = terms;
    index.sorted = terms.length;
    return index;
  }
}
