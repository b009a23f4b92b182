import { ServerNameSchema } from '../../shared/domain/server';

const MAX_NAME = 64;

/** `raw` turned into a name ServerNameSchema accepts: invalid characters become `-`. */
export function validServerName(raw: string): string {
  let name = raw
    .trim()
    .replace(/[^A-Za-z0-9 _.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  name = name.slice(0, MAX_NAME).trim();
  return ServerNameSchema.safeParse(name).success ? name : 'server';
}

/** A valid name for `raw` not in `taken` (lower-cased names), by adding " 2", " 3"…. */
export function uniqueServerName(raw: string, taken: ReadonlySet<string>): string {
  const base = validServerName(raw);
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n += 1) {
    const suffix = ` ${n}`;
    const name = `${base.slice(0, MAX_NAME - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}
