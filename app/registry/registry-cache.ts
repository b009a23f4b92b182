import { createHash } from 'node:crypto';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../config/atomic-write';

/** Enough for a long search session; the oldest answers go first beyond it. */
const MAX_ENTRIES = 300;

const CachedSchema = z.object({ url: z.string(), fetchedAt: z.number(), body: z.unknown() });

/** One registry answer as it was received, and when. */
export interface CachedAnswer {
  fetchedAt: number;
  body: unknown;
}

/**
 * Registry answers on disk (`state/registry-cache/`), one file per request
 * URL, written atomically, so Discover still shows something (with its age)
 * when the registry is down or the machine is offline. What is read back is
 * checked again like a fresh answer: the cache is a copy of untrusted data.
 */
export class RegistryCache {
  constructor(
    private readonly dir: string,
    private readonly warn: (text: string) => void,
  ) {}

  async get(url: string): Promise<CachedAnswer | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(url), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = CachedSchema.safeParse(JSON.parse(text));
      // A hash collision or a hand-edited file: not this URL's answer.
      if (!parsed.success || parsed.data.url !== url) return undefined;
      return { fetchedAt: parsed.data.fetchedAt, body: parsed.data.body };
    } catch {
      return undefined;
    }
  }

  async put(url: string, body: unknown, fetchedAt = Date.now()): Promise<void> {
    try {
      await atomicWriteFile(this.file(url), JSON.stringify({ url, fetchedAt, body }));
      await this.prune();
    } catch (error) {
      // A cache that cannot be written costs only the offline fallback.
      this.warn(`could not cache a registry answer in ${this.dir}: ${(error as Error).message}`);
    }
  }

  private file(url: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex').slice(0, 40)}.json`);
  }

  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((name) => name.endsWith('.json'));
    if (names.length <= MAX_ENTRIES) return;
    const dated = await Promise.all(
      names.map(async (name) => ({
        name,
        mtime: (await stat(join(this.dir, name)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
    );
    dated.sort((a, b) => a.mtime - b.mtime);
    for (const { name } of dated.slice(0, dated.length - MAX_ENTRIES))
      await unlink(join(this.dir, name)).catch(() => undefined);
  }
}
