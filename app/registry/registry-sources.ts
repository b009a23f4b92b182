import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { RegistryUrlSchema } from '../../shared/contract/registry';
import { atomicWriteFile } from '../config/atomic-write';

export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';
export const REGISTRIES_FILE = 'registries.json';

const FileSchema = z.object({ registries: z.array(RegistryUrlSchema).min(1).max(20) });

/** A base URL without a trailing slash, so one registry is not listed twice. */
function normalize(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/**
 * Which registries Discover searches: `registries.json` in Berth's config
 * folder (the person's choice in Discover), else the default (the official
 * registry, or BERTH_REGISTRY_URL for tests and organizations that run their own).
 */
export class RegistrySources {
  private current: string[] | undefined;

  constructor(
    private readonly configDir: string,
    private readonly fallback: string,
    private readonly warn: (text: string) => void,
  ) {}

  async list(): Promise<string[]> {
    this.current ??= await this.read();
    return [...this.current];
  }

  async set(registries: readonly string[]): Promise<string[]> {
    const next = [...new Set(registries.map(normalize))];
    await atomicWriteFile(join(this.configDir, REGISTRIES_FILE), `${JSON.stringify({ registries: next }, null, 2)}\n`);
    this.current = next;
    return [...next];
  }

  private async read(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(join(this.configDir, REGISTRIES_FILE), 'utf8');
    } catch {
      return [normalize(this.fallback)];
    }
    try {
      const parsed = FileSchema.safeParse(JSON.parse(text));
      if (parsed.success) return [...new Set(parsed.data.registries.map(normalize))];
      this.warn(
        `${REGISTRIES_FILE} is not a list of registry addresses (${parsed.error.issues[0]?.message ?? 'invalid'}): using ${this.fallback}`,
      );
    } catch {
      this.warn(`${REGISTRIES_FILE} is not valid JSON: using ${this.fallback}`);
    }
    return [normalize(this.fallback)];
  }
}
