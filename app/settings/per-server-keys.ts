// settings.json keeps some settings per server name (a record keyed by the name). They all follow
// the server: forgotten with it, moved when it is renamed.

/** The settings.json keys holding a record per server name. */
export const PER_SERVER_KEYS = ['samplingLimits', 'tasksForOptionalTools', 'sendInstructions', 'resultLimits'] as const;
export type PerServerKey = (typeof PER_SERVER_KEYS)[number];

type PerServerFile = Partial<Record<PerServerKey, Record<string, unknown> | undefined>>;

export function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const rest = { ...record };
  delete rest[key];
  return rest;
}

/** `from`'s value under `to` (replacing whatever `to` had); unchanged when `from` has none. */
export function movedKey<T>(record: Record<string, T>, from: string, to: string): Record<string, T> {
  const value = record[from];
  if (value === undefined) return record;
  return { ...withoutKey(record, from), [to]: value };
}

/** `file` without `server`'s per-server settings; undefined when it had none (nothing to write). */
export function withoutServer<F extends PerServerFile>(file: F, server: string): F | undefined {
  const next: PerServerFile = { ...file };
  let changed = false;
  for (const key of PER_SERVER_KEYS) {
    const record = file[key];
    if (record?.[server] === undefined) continue;
    next[key] = withoutKey(record, server);
    changed = true;
  }
  return changed ? (next as F) : undefined;
}

/** `file` with `from`'s per-server settings under `to`; undefined when it had none. */
export function withServerRenamed<F extends PerServerFile>(file: F, from: string, to: string): F | undefined {
  if (from === to) return undefined;
  const next: PerServerFile = { ...file };
  let changed = false;
  for (const key of PER_SERVER_KEYS) {
    const record = file[key];
    if (record?.[from] === undefined) continue;
    next[key] = movedKey(record, from, to);
    changed = true;
  }
  return changed ? (next as F) : undefined;
}
