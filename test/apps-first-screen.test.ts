import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The MCP Apps bridge library (~33 KB gzip) and the app frame must load on
 * demand, never with the first screen: this follows the renderer's static,
 * value (not type-only) imports from its entry and checks neither is reached.
 * scripts/check-initial-js.mjs weighs the built first screen; this says what
 * must not be in it, without a build or a browser.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.js$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find(
    (c) => existsSync(c) && statSync(c).isFile(),
  );
}

/** The specifiers one file imports: statically (values only), and through import(). */
function importsOf(file: string): { staticImports: string[]; dynamicImports: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const staticImports: string[] = [];
  const dynamicImports: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) staticImports.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      !node.isTypeOnly
    ) {
      staticImports.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      dynamicImports.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { staticImports, dynamicImports };
}

/** Every file and package the entry reaches through static imports. */
function firstScreen(entry: string): { files: Set<string>; packages: Set<string>; dynamic: Map<string, string[]> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const dynamic = new Map<string, string[]>();
  const queue = [join(repoRoot, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const name = relative(repoRoot, file).split('\\').join('/');
    if (files.has(name)) continue;
    files.add(name);
    const { staticImports, dynamicImports } = importsOf(file);
    dynamic.set(name, dynamicImports);
    for (const specifier of staticImports) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (target !== undefined && /\.tsx?$/.test(target)) queue.push(target);
    }
  }
  return { files, packages, dynamic };
}

describe('the first screen and MCP Apps', () => {
  const { files, packages, dynamic } = firstScreen('renderer/main.tsx');

  it('reaches the tool card, which loads the app card only on demand', () => {
    expect(files.has('renderer/features/chat/tool-call-card.tsx')).toBe(true);
    expect(dynamic.get('renderer/features/chat/tool-call-card.tsx')).toContain('../apps/app-card');
  });

  it('does not statically import the ext-apps bridge library or the app frame', () => {
    expect([...packages].filter((p) => p.startsWith('@modelcontextprotocol/ext-apps'))).toEqual([]);
    expect([...files].filter((f) => f.startsWith('renderer/features/apps/'))).toEqual([]);
  });
});
