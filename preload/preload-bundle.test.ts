import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IPC_CALL_CHANNEL, METHOD_NAMES } from '../shared/contract';
import { PRELOAD_GLOBAL, type BerthPreloadApi } from '../shared/contract/preload-api';

// A sandboxed preload runs in a renderer with a `require` that knows
// `electron` (and a few polyfills) and no Node globals. Run the real bundle in
// a bare VM context like that to prove it needs nothing else.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
let outDir: string;
let code: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'berth-preload-bundle-'));
  await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'scripts/build-node.mjs'), '--only', 'preload', '--out-dir', outDir],
    {
      cwd: repoRoot,
    },
  );
  code = await readFile(join(outDir, 'preload', 'index.cjs'), 'utf8');
}, 120_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('bundled preload', () => {
  it('requires only electron and exposes the bridge in a bare sandbox', async () => {
    const required: string[] = [];
    const exposed = new Map<string, unknown>();
    const invocations: unknown[][] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: unknown) => exposed.set(name, api) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invocations.push(args);
          return { ok: true, value: null };
        },
        on: () => undefined,
        removeListener: () => undefined,
      },
    };
    const module = { exports: {} };
    const sandbox = {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name === 'electron') return electron;
        throw new Error(`a sandboxed preload cannot require "${name}"`);
      },
      console,
      URL,
      TextEncoder,
      TextDecoder,
      setTimeout,
      clearTimeout,
      queueMicrotask,
    };
    runInNewContext(code, sandbox, { filename: 'preload/index.cjs' });

    expect(required).toEqual(['electron']);
    const api = exposed.get(PRELOAD_GLOBAL) as BerthPreloadApi | undefined;
    expect(api).toBeDefined();
    expect(Object.keys(api?.methods ?? {}).sort()).toEqual([...METHOD_NAMES].sort());
    await api?.methods['servers.list']({});
    expect(invocations).toEqual([[IPC_CALL_CHANNEL, 'servers.list', {}]]);
    expect(code).not.toMatch(/require\("(?:node:)?(?:fs|path|child_process|os)"\)/);
  });
});
