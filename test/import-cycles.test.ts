import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** The host's side. renderer/ is left out until its pending-dialogs circle is gone (another change). */
const CHECKED = ['app', 'shared', 'main', 'preload'];

/** Relative imports that exist at run time: `import type` / `export type` vanish when compiled, so they cannot form a circle. */
function runtimeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'(\.[^']+)'/gm)) {
    if (match[1] !== undefined) continue;
    const base = resolve(dirname(file), match[2] ?? '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (target !== undefined) found.push(target);
  }
  return found;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(resolve(path));
  }
  return files;
}

/** Every group of files that import each other in a circle (Tarjan's strongly connected components). */
function importCycles(files: string[], importsOf: (file: string) => string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  it('finds a circle when there is one (the check itself works)', () => {
    const edges: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['a'] };
    expect(importCycles(Object.keys(edges), (file) => edges[file] ?? [])).toEqual([['a', 'b', 'c']]);
  });

  it('reads runtime imports, not type-only ones', () => {
    const file = join(repoRoot, 'app/servers/connection-errors.ts');
    const imports = runtimeImports(file).map((target) => relative(repoRoot, target));
    expect(imports).toContain('app/servers/spawn-errors.ts');
    expect(imports).not.toContain('app/servers/connection-transport.ts');
  });

  it(`has none in ${CHECKED.join(', ')}`, () => {
    const files = CHECKED.flatMap((folder) => sourceFiles(join(repoRoot, folder)));
    const cycles = importCycles(files, runtimeImports).map((group) => group.map((file) => relative(repoRoot, file)).join(' → '));
    expect(cycles).toEqual([]);
  });
});
