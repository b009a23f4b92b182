import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/**
 * The host's failures carry a code (`HostError.coded`, docs/ARCHITECTURE.md "Failures with a code"); these
 * files still build one with `new HostError(`, each for its reason. The count may only go down.
 */
const ALLOWED: Record<string, { count: number; why: string }> = {
  'shared/result.ts': { count: 1, why: 'HostError.coded itself' },
  'app/skills/skills-service.ts': { count: 1, why: "passes on the skill outcome's own code" },
  'app/roots/folder-browser.ts': { count: 1, why: 'the same coded refusal, naming its field' },
  'app/roots/file-uri.ts': { count: 1, why: 'a file: URI comes from a program, never the person' },
  'app/bundles/bundle-service.ts': {
    count: 1,
    why: "one problem passes on its code; several join the review's English",
  },
  'app/bridge/handlers-oauth.ts': { count: 1, why: "passes on a missing secret's start-failure code" },
  'app/oauth/oauth-sessions.ts': { count: 1, why: 'an error of the sign-in around its steps, in its own words' },
  // A schema's own sentence stays the message; the code is the zod issue's kind (shared/domain/input-issue-words.ts).
  'app/config/config-store.ts': { count: 2, why: "the schema's words, coded by the issue's kind" },
  'app/settings/provider-settings.ts': { count: 1, why: "the schema's words, coded by settings-issue-words" },
  'app/settings/anthropic-models.ts': { count: 1, why: "the schema's words, coded by settings-issue-words" },
  'app/settings/settings-store.ts': { count: 1, why: "the schema's words, coded by settings-issue-words" },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    const test = /\.test\.tsx?$/.test(entry.name) || /test-support/.test(entry.name);
    return entry.name.endsWith('.ts') && !test ? [path] : [];
  });
}

describe('a host failure without a code', () => {
  it('appears only where the list says why, and no more often', () => {
    const found = ['app', 'shared', 'main'].flatMap((dir) =>
      sources(join(root, dir)).map((path) => ({
        file: relative(root, path).replaceAll('\\', '/'),
        count: readFileSync(path, 'utf8').split('new HostError(').length - 1,
      })),
    );
    const over = found
      .filter(({ file, count }) => count > (ALLOWED[file]?.count ?? 0))
      .map(({ file, count }) => `${file}: ${count} (use HostError.coded with a family's code)`);
    expect(over).toEqual([]);
  });
});
