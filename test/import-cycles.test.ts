import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module may reach itself through its relative imports (type-only imports
 * included): a circle means two modules that cannot be read, tested or moved
 * apart, and at run time one of them sees the other half-initialised.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['app', 'shared', 'renderer', 'main', 'preload'];

type Graph = Map<string, string[]>;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...sourceFiles(path));
    } else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

/** The file a relative specifier names, as TypeScript and Vite resolve it here. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Each file and the files its relative imports, re-exports and dynamic imports name, repo-relative. */
function importGraph(folders: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of folders.flatMap((folder) => sourceFiles(join(repoRoot, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveRelative(file, specifier))
      .filter((target): target is string => target !== undefined)
      .map((target) => relative(repoRoot, target).split('\\').join('/'));
    graph.set(relative(repoRoot, file).split('\\').join('/'), targets);
  }
  return graph;
}

/** Every circle, as its strongly connected set of files, sorted (Tarjan's algorithm). */
export function findCycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('import cycles', () => {
  it('finds a circle of any length, and a module that imports itself', () => {
    const graph: Graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'x.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['d.ts']],
      ['x.ts', []],
      ['y.ts', ['x.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(findCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it(`none in ${FOLDERS.join('/, ')}/`, () => {
    const graph = importGraph(FOLDERS);
    // The walk saw the code: a broken resolver would find no circle anywhere.
    expect(graph.get('app/bridge/handlers.ts')).toContain('app/bridge/handlers-servers.ts');
    expect(findCycles(graph).map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });
});
