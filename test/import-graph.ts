import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The relative imports of the source tree, read the way TypeScript and Vite
// resolve them here: what test/import-cycles.test.ts and
// test/folder-imports.test.ts check.

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** file → the files it imports, repo-relative with forward slashes. */
export type Graph = Map<string, string[]>;

/** One relative import (or re-export, or dynamic import) and the file it names. */
export interface ImportEdge {
  from: string;
  specifier: string;
  to: string;
}

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

const repoPath = (file: string): string => relative(repoRoot, file).split('\\').join('/');

/** Every source file of `folders` (repo-relative), each with the relative imports that resolve to a file. */
export function importsOf(folders: readonly string[]): Map<string, ImportEdge[]> {
  const imports = new Map<string, ImportEdge[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(repoRoot, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const from = repoPath(file);
    const edges: ImportEdge[] = [];
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target !== undefined) edges.push({ from, specifier, to: repoPath(target) });
    }
    imports.set(from, edges);
  }
  return imports;
}

/** Each file and the files its relative imports, re-exports and dynamic imports name, repo-relative. */
export function importGraph(folders: readonly string[]): Graph {
  return new Map([...importsOf(folders)].map(([file, edges]) => [file, edges.map((edge) => edge.to)]));
}

/** Every circle, as its strongly connected set of nodes, sorted (Tarjan's algorithm). */
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
