import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SERVER_EVERYTHING_ENTRY } from './berth';

// What a server writes is never translated (issue 36). The localized specs tell the server's words from Berth's by
// reading them where the server keeps them: the string literals of its own code, so a new tool or a reworded
// description follows without a list to keep.

/** Every string literal (the fixed parts of template literals too) in a package's built JavaScript. */
export function stringLiterals(folder: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== '__tests__') walk(join(dir, entry.name));
      else if (entry.isFile() && entry.name.endsWith('.js')) {
        const code = readFileSync(join(dir, entry.name), 'utf8');
        for (const [, double, single, template] of code.matchAll(
          /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g,
        ))
          for (const part of (double ?? single ?? template ?? '').split(/\$\{[^}]*\}/))
            if (part.trim() !== '') found.add(part.trim());
      }
    }
  };
  walk(folder);
  return found;
}

/** server-everything's own words: its titles, descriptions, schema fields, enum values and messages. */
export const SERVER_EVERYTHING_WORDS = stringLiterals(dirname(SERVER_EVERYTHING_ENTRY));
