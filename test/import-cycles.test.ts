import { describe, expect, it } from 'vitest';
import { findCycles, importGraph, type Graph } from './import-graph';

/**
 * No module may reach itself through its relative imports (type-only imports
 * included): a circle means two modules that cannot be read, tested or moved
 * apart, and at run time one of them sees the other half-initialised.
 */
const FOLDERS = ['app', 'shared', 'renderer', 'main', 'preload'];

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
    expect(
      findCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it(`none in ${FOLDERS.join('/, ')}/`, () => {
    const graph = importGraph(FOLDERS);
    // The walk saw the code: a broken resolver would find no circle anywhere.
    expect(graph.get('app/host/capabilities/servers.ts')).toContain('app/bridge/handlers-servers.ts');
    expect(findCycles(graph).map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });
});
