import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const BOUNDARY_RULES = new Set(['no-restricted-imports', 'berth/layer-dynamic-imports']);

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** Boundary messages ESLint reports for `code` as if it lived at `file` (the file need not exist). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
  if (result === undefined) throw new Error(`ESLint returned no result for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(`${file} did not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages
    .filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId) && m.severity === 2)
    .map((m) => m.message);
}

/** Each case uses what it imports, so only the boundary rules can complain. */
const use = (specifier: string) => `import * as mod from '${specifier}';\nexport const used = mod;\n`;

const forbidden: Array<[file: string, code: string]> = [
  // shared/: pure TS
  ['shared/x.ts', use('node:fs')],
  ['shared/x.ts', use('fs')],
  ['shared/domain/x.ts', use('path')],
  ['shared/contract/x.ts', use('fs/promises')],
  ['shared/x.ts', use('child_process')],
  ['shared/x.ts', use('electron')],
  ['shared/x.ts', use('react')],
  ['shared/x.ts', use('react-dom/client')],
  ['shared/x.ts', use('../app/host')],
  ['shared/contract/x.ts', use('../../app/host-types')],
  ['shared/contract/x.ts', use('../../renderer/store')],
  ['shared/x.ts', use('../main/ipc')],
  ['shared/x.ts', use('./../preload/bridge-api')],
  // app/: plain Node
  ['app/x.ts', `import { app } from 'electron';\nexport const used = app;\n`],
  ['app/servers/x.ts', use('electron')],
  ['app/x.ts', `import React from 'react';\nexport const used = React;\n`],
  ['app/x.ts', use('@tanstack/react-virtual')],
  ['app/x.ts', use('../main/window')],
  ['app/bridge/x.ts', use('../../renderer/transport')],
  ['app/bridge/x.ts', use('../../preload')],
  ['app/x.ts', `export * from '../renderer/store';\n`],
  ['app/x.ts', `export const lazy = () => import('electron');\n`],
  // main/ and preload/: no renderer, no React
  ['main/x.ts', use('../renderer/store')],
  ['main/x.ts', use('react')],
  ['preload/x.ts', use('../renderer/transport/ipc-transport')],
  ['preload/x.ts', use('react-dom')],
  // renderer/: browser only
  ['renderer/x.ts', use('node:path')],
  ['renderer/features/x.ts', use('os')],
  ['renderer/features/x.ts', use('electron')],
  ['renderer/features/x.ts', `import x from '../../app/host';\nexport const used = x;\n`],
  ['renderer/features/servers/x.tsx', use('../../../main/ipc')],
  ['renderer/x.ts', use('../preload/bridge-api')],
  ['renderer/store/x.ts', use('../../app/config/paths')],
  ['renderer/x.ts', `export const lazy = () => import('node:fs');\n`],
  // a path that hides where it goes
  ['renderer/features/x.ts', use('../../renderer/../app/host')],
];

const allowed: Array<[file: string, code: string]> = [
  ['shared/x.ts', use('zod')],
  ['shared/contract/x.ts', use('../result')],
  ['shared/contract/x.ts', use('../domain/server')],
  ['shared/contract/x.ts', use('./index')],
  ['app/x.ts', use('node:fs')],
  ['app/x.ts', use('ws')],
  ['app/x.ts', use('@modelcontextprotocol/client')],
  ['app/servers/x.ts', use('../../shared/contract')],
  ['app/servers/x.ts', use('../config/paths')],
  ['main/x.ts', use('electron')],
  ['main/x.ts', use('node:path')],
  ['main/x.ts', use('../app/host')],
  ['main/x.ts', use('../shared/contract')],
  ['preload/x.ts', use('electron')],
  ['preload/x.ts', use('../shared/contract/preload-api')],
  ['renderer/x.tsx', use('react')],
  ['renderer/x.tsx', use('react-dom/client')],
  ['renderer/features/x.tsx', use('radix-ui')],
  ['renderer/features/x.ts', use('zustand')],
  ['renderer/features/x.ts', use('../../shared/contract')],
  ['renderer/features/x.ts', use('../store')],
  // renderer-internal folders that share a name with a layer are not that layer
  ['renderer/features/x.ts', use('../app/shell')],
  ['renderer/features/servers/x.ts', use('../main/view')],
  ['renderer/x.ts', use('./main')],
  ['e2e/x.ts', use('node:fs')],
  ['scripts/x.mjs', use('node:fs')],
];

describe('import boundaries', () => {
  it.each(forbidden)('%s: forbids %j', async (file, code) => {
    const errors = await boundaryErrors(file, code);
    expect(errors.length, `expected a boundary error for ${file}`).toBeGreaterThan(0);
  });

  it.each(allowed)('%s: allows %j', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });

  it('says why an import is refused', async () => {
    const [message] = await boundaryErrors('app/x.ts', use('electron'));
    expect(message).toContain('Only main/ and preload/ may use Electron');
  });
});

describe('base rules', () => {
  it('reports explicit any and unused variables, but allows _-prefixed ones', async () => {
    const [result] = await eslint.lintText(
      'export function f(_unused: number, value: any): number { const dead = 1; return Number(value); }\n',
      { filePath: join(repoRoot, 'app/x.ts') },
    );
    const rules = result?.messages.map((m) => m.ruleId) ?? [];
    expect(rules).toContain('@typescript-eslint/no-explicit-any');
    expect(
      result?.messages.filter((m) => m.ruleId === '@typescript-eslint/no-unused-vars').map((m) => m.message),
    ).toEqual([expect.stringContaining("'dead'")]);
  });

  it('ignores build output', async () => {
    expect(await eslint.isPathIgnored(join(repoRoot, 'dist/main/index.cjs'))).toBe(true);
    expect(await eslint.isPathIgnored(join(repoRoot, 'release/x.js'))).toBe(true);
    expect(await eslint.isPathIgnored(join(repoRoot, 'main/index.ts'))).toBe(false);
  });
});
