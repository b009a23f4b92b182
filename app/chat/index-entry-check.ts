import { CONVERSATION_ID_PATTERN, type ConversationSummary } from '../../shared/domain/chat';

/**
 * The index entry check, written out by hand. It accepts exactly what
 * `IndexEntrySchema` (conversation-index.ts) accepts and, like it, keeps only
 * the known keys (an object with no others is kept as it is, not copied);
 * index-entry-check.test.ts holds it to the schema. Why not the schema: with
 * 5,000 conversations its parse cost ~22 ms of every start, and the copies it
 * built were garbage at once.
 */

type Fields = Record<string, unknown>;

/** What the index records of a file (conversation-index.ts's `FileIdentity`, spelled out here: no import cycle). */
type FileIdentity = { size: number; mtimeMs: number; ino: number };

/** One index entry (conversation-index.ts's `IndexEntry`). */
export type CheckedIndexEntry = { file: FileIdentity; summary: ConversationSummary };

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What zod's `z.number()` accepts (JSON never gives NaN or Infinity, but a hand-made object may). */
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** How many own enumerable keys `value` has, counted without building the list. */
function keyCount(value: Fields): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count += 1;
  return count;
}

function checkFile(value: unknown): FileIdentity | string {
  if (!isFields(value)) return 'file is not an object';
  const { size, mtimeMs, ino } = value;
  if (!isNumber(size)) return 'file.size is not a number';
  if (!isNumber(mtimeMs)) return 'file.mtimeMs is not a number';
  if (!isNumber(ino)) return 'file.ino is not a number';
  // What the index holds, as written: kept as parsed, without a copy (5,000 of them at every start).
  return keyCount(value) === 3 ? (value as FileIdentity) : { size, mtimeMs, ino };
}

function checkSummary(value: unknown): ConversationSummary | string {
  if (!isFields(value)) return 'summary is not an object';
  const { id, title, createdAt, updatedAt, model, messageCount, pinned } = value;
  if (typeof id !== 'string' || !CONVERSATION_ID_PATTERN.test(id)) return 'summary.id is not a conversation id';
  if (typeof title !== 'string') return 'summary.title is not text';
  if (!isNumber(createdAt)) return 'summary.createdAt is not a number';
  if (!isNumber(updatedAt)) return 'summary.updatedAt is not a number';
  if (typeof model !== 'string') return 'summary.model is not text';
  if (!Number.isSafeInteger(messageCount) || (messageCount as number) < 0) return 'summary.messageCount is not a count';
  if (pinned !== undefined && typeof pinned !== 'boolean') return 'summary.pinned is not true or false';
  const known = pinned === undefined ? 6 : 7;
  return keyCount(value) === known
    ? (value as ConversationSummary)
    : {
        id,
        title,
        createdAt,
        updatedAt,
        model,
        messageCount: messageCount as number,
        ...(pinned !== undefined ? { pinned } : {}),
      };
}

/** The entry with only its known keys, or why it is not one. */
export function checkIndexEntry(value: unknown): CheckedIndexEntry | string {
  if (!isFields(value)) return 'not an object';
  const file = checkFile(value.file);
  if (typeof file === 'string') return file;
  const summary = checkSummary(value.summary);
  if (typeof summary === 'string') return summary;
  return keyCount(value) === 2 && file === value.file && summary === value.summary
    ? (value as CheckedIndexEntry)
    : { file, summary };
}
