import { describe, expect, it } from 'vitest';
import { COMPOSITION_FILE, FOLDER_TABLE, type Arrows, type FolderTable } from './folder-table';
import { findCycles, importsOf, type ImportEdge } from './import-graph';

/**
 * Dependencies point one way: every relative import in the source tree follows
 * an arrow of test/folder-table.ts (layers, and app/'s folders), so a folder can
 * be read, tested and moved with only what it builds on.
 */
const FOLDERS = Object.keys(FOLDER_TABLE.layers);

/** The layer of a repo path and, inside app/, its part: a folder (`servers`) or a file at app/'s root (`host.ts`). */
function unitOf(path: string): { layer: string; part?: string } {
  const [top = path, second] = path.split('/');
  if (top !== 'app' || second === undefined) return { layer: top };
  return { layer: 'app', part: second };
}

/** Tests and their helpers ship in no bundle: they may use fixtures and wire any of app/'s folders together. */
const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path) || path.includes('test-support');

/** The table's row for a part of app/. */
const rowKey = (part: string): string => (COMPOSITION_FILE.test(part) ? 'host*.ts' : part);

/** Each import no arrow allows, naming the file, the import and the arrow it would need. */
export function wrongArrows(edges: readonly ImportEdge[], table: FolderTable): string[] {
  const wrong: string[] = [];
  for (const edge of edges) {
    const from = unitOf(edge.from);
    const to = unitOf(edge.to);
    const test = isTest(edge.from);
    const refuse = (why: string) => wrong.push(`${edge.from}: import '${edge.specifier}' (${why})`);
    if (from.layer !== to.layer) {
      const may = [...(table.layers[from.layer] ?? []), ...(test ? table.testLayers : [])];
      if (!may.includes(to.layer)) refuse(`${from.layer}/ may not import ${to.layer}`);
      continue;
    }
    if (from.layer !== 'app' || test || from.part === to.part || from.part === undefined || to.part === undefined)
      continue;
    const key = rowKey(from.part);
    const row = table.app[key];
    if (row === undefined) {
      refuse(`app/${from.part} has no row in test/folder-table.ts`);
      continue;
    }
    const may = [...row, ...(table.exceptions[key] ?? [])];
    if (!may.includes('*') && !may.includes(to.part)) refuse(`app/${key} may not import app/${to.part}`);
  }
  return wrong;
}

/** Exceptions no source import needs any more: each should leave the table when its work lands. */
export function unneededExceptions(edges: readonly ImportEdge[], table: FolderTable): string[] {
  const used = new Set<string>();
  for (const edge of edges) {
    const from = unitOf(edge.from);
    const to = unitOf(edge.to);
    if (from.layer === 'app' && to.layer === 'app' && from.part !== undefined && !isTest(edge.from)) {
      used.add(`${rowKey(from.part)} → ${to.part}`);
    }
  }
  return Object.entries(table.exceptions)
    .flatMap(([from, targets]) => targets.map((to) => `${from} → ${to}`))
    .filter((arrow) => !used.has(arrow));
}

/** The table's own circles among app/'s parts (the composition, `*`, and the exceptions aside). */
export function tableCycles(arrows: Arrows): string[][] {
  const graph = new Map(
    Object.entries(arrows)
      .filter(([, targets]) => !targets.includes('*'))
      .map(([from, targets]) => [from, [...targets]]),
  );
  return findCycles(graph);
}

/**
 * renderer/ui is the design system every feature builds on: it imports nothing
 * else of the renderer (no feature, no store, no transport), so a control can
 * be used, tested and restyled without the app around it.
 */
export function uiLayerImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(
      (e) =>
        e.from.startsWith('renderer/ui/') &&
        !isTest(e.from) &&
        e.to.startsWith('renderer/') &&
        !e.to.startsWith('renderer/ui/') &&
        // Its words come from the catalog, as every part's do; renderer/i18n imports no other part (below).
        !e.to.startsWith('renderer/i18n/'),
    )
    .map((e) => `${e.from}: import '${e.specifier}' (renderer/ui may import only itself, shared/ and packages)`);
}

/** renderer/i18n (the catalog, the locale, Intl) is a leaf every part may use: it imports no other part of the renderer. */
export function i18nLayerImports(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(
      (e) =>
        e.from.startsWith('renderer/i18n/') &&
        !isTest(e.from) &&
        e.to.startsWith('renderer/') &&
        !e.to.startsWith('renderer/i18n/'),
    )
    .map((e) => `${e.from}: import '${e.specifier}' (renderer/i18n may import only itself, shared/ and packages)`);
}

const edge = (from: string, specifier: string, to: string): ImportEdge => ({ from, specifier, to });

describe('folder imports', () => {
  const edges = [...importsOf(FOLDERS).values()].flat();

  it('renderer/i18n imports nothing else of the renderer, so the design system can use it', () => {
    expect(edges.some((e) => e.from.startsWith('renderer/i18n/'))).toBe(true);
    expect(i18nLayerImports(edges)).toEqual([]);
    expect(i18nLayerImports([edge('renderer/i18n/x.ts', '../store', 'renderer/store/index.ts')])).toEqual([
      "renderer/i18n/x.ts: import '../store' (renderer/i18n may import only itself, shared/ and packages)",
    ]);
  });

  it('renderer/ui imports nothing else of the renderer', () => {
    expect(edges.some((e) => e.from.startsWith('renderer/ui/'))).toBe(true);
    expect(uiLayerImports(edges)).toEqual([]);
    // The check itself: a control reaching into a feature or the store is named.
    expect(
      uiLayerImports([
        edge('renderer/ui/dialog.tsx', '../features/chat/x', 'renderer/features/chat/x.ts'),
        edge('renderer/ui/controls.tsx', '../store', 'renderer/store/index.ts'),
        edge('renderer/ui/dialog.test.tsx', '../test-support/dom-stubs', 'renderer/test-support/dom-stubs.ts'),
      ]),
    ).toEqual([
      "renderer/ui/dialog.tsx: import '../features/chat/x' (renderer/ui may import only itself, shared/ and packages)",
      "renderer/ui/controls.tsx: import '../store' (renderer/ui may import only itself, shared/ and packages)",
    ]);
  });

  it('every relative import in app/, shared/, main/, preload/ and renderer/ follows an arrow of the table', () => {
    // The walk saw the code: a broken resolver would find no import to refuse.
    expect(edges).toContainEqual(
      edge('app/chat/chat-engine.ts', '../providers/llm-provider', 'app/providers/llm-provider.ts'),
    );
    expect(edges.some((e) => e.from.startsWith('renderer/') && e.to.startsWith('shared/'))).toBe(true);
    expect(wrongArrows(edges, FOLDER_TABLE)).toEqual([]);
  });

  it('the table points one way: no circle among app/ folders outside the listed exceptions', () => {
    expect(tableCycles(FOLDER_TABLE.app)).toEqual([]);
  });

  it('every exception is still needed (remove one once its work has landed)', () => {
    expect(unneededExceptions(edges, FOLDER_TABLE)).toEqual([]);
  });
});

describe('the folder-import checker', () => {
  // A made-up table, so these cases stay what they are when the real one changes.
  const table: FolderTable = {
    layers: { shared: [], app: ['shared'], main: ['app', 'shared'], preload: ['shared'], renderer: ['shared'] },
    testLayers: ['e2e'],
    app: { config: [], servers: ['config'], apps: ['servers'], tasks: ['servers'], 'host*.ts': ['*'] },
    exceptions: { tasks: ['host-tool-context.ts'] },
  };

  it('refuses an app/ arrow the table does not have, naming the file and the import', () => {
    const wrong = edge('app/servers/berth-client.ts', '../apps/tool-ui', 'app/apps/tool-ui.ts');
    expect(wrongArrows([wrong], table)).toEqual([
      "app/servers/berth-client.ts: import '../apps/tool-ui' (app/servers may not import app/apps)",
    ]);
    // The same arrow once the table has it, or from a test, passes.
    expect(wrongArrows([wrong], { ...table, app: { ...table.app, servers: ['config', 'apps'] } })).toEqual([]);
    expect(wrongArrows([edge('app/servers/x.test.ts', '../apps/tool-ui', 'app/apps/tool-ui.ts')], table)).toEqual([]);
  });

  it('refuses a wrong layer arrow, tests included', () => {
    expect(
      wrongArrows(
        [
          edge('shared/domain/x.ts', '../../app/config/paths', 'app/config/paths.ts'),
          edge('renderer/x.ts', '../app/host', 'app/host.ts'),
          edge('preload/x.ts', '../app/host-types', 'app/host-types.ts'),
          edge('app/servers/x.test.ts', '../../renderer/store', 'renderer/store/index.ts'),
          edge('app/servers/x.ts', '../../e2e/fake-llm/fake-anthropic', 'e2e/fake-llm/fake-anthropic.ts'),
        ],
        table,
      ),
    ).toEqual([
      "shared/domain/x.ts: import '../../app/config/paths' (shared/ may not import app)",
      "renderer/x.ts: import '../app/host' (renderer/ may not import app)",
      "preload/x.ts: import '../app/host-types' (preload/ may not import app)",
      "app/servers/x.test.ts: import '../../renderer/store' (app/ may not import renderer)",
      "app/servers/x.ts: import '../../e2e/fake-llm/fake-anthropic' (app/ may not import e2e)",
    ]);
    expect(
      wrongArrows(
        [edge('app/servers/x.test.ts', '../../e2e/fake-llm/fake-anthropic', 'e2e/fake-llm/fake-anthropic.ts')],
        table,
      ),
    ).toEqual([]);
    expect(wrongArrows([edge('main/x.ts', '../app/host', 'app/host.ts')], table)).toEqual([]);
  });

  it('refuses a part of app/ that has no row, and honours the composition and the exceptions', () => {
    expect(wrongArrows([edge('app/newcomer/x.ts', '../config/paths', 'app/config/paths.ts')], table)).toEqual([
      "app/newcomer/x.ts: import '../config/paths' (app/newcomer has no row in test/folder-table.ts)",
    ]);
    expect(wrongArrows([edge('app/host-chat.ts', './apps/x', 'app/apps/x.ts')], table)).toEqual([]);
    expect(wrongArrows([edge('app/tasks/x.ts', '../host-tool-context', 'app/host-tool-context.ts')], table)).toEqual(
      [],
    );
    expect(wrongArrows([edge('app/tasks/x.ts', '../host-workflow', 'app/host-workflow.ts')], table)).toEqual([
      "app/tasks/x.ts: import '../host-workflow' (app/tasks may not import app/host-workflow.ts)",
    ]);
  });

  it('finds a circle in a table, and an exception nothing needs', () => {
    expect(tableCycles({ ...table.app, config: ['apps'] })).toEqual([['apps', 'config', 'servers']]);
    expect(unneededExceptions([edge('app/tasks/x.ts', '../servers/y', 'app/servers/y.ts')], table)).toEqual([
      'tasks → host-tool-context.ts',
    ]);
    expect(
      unneededExceptions([edge('app/tasks/x.ts', '../host-tool-context', 'app/host-tool-context.ts')], table),
    ).toEqual([]);
  });
});
