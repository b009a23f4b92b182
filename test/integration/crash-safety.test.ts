import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RootsStore } from '../../app/roots/roots-store';
import { ConversationStore } from '../../app/chat/conversation-store';
import type { Conversation } from '../../shared/domain/chat';
import type { ConfigStatus } from '../../shared/domain/config';
import type { ConsentPolicy } from '../../shared/domain/consent';
import { createRng, type Rng } from './fuzz-payloads';
import { startHost } from './host-harness';
import {
  CRASH_STORES,
  expectedState,
  readState,
  rootName,
  type CrashStore,
  type CrashWriterInput,
} from './fixtures/crash-versions';

/**
 * SIGKILLs a process that writes to every Berth store through the real
 * modules, at random moments, then checks each file holds a whole version
 * (the last one finished, or the one being written) and that the next start
 * loads everything without a warning and sweeps the temp files. 40 kills by
 * default; BERTH_SOAK=1 runs 200 (or BERTH_CRASH_KILLS). Replay a failure
 * with BERTH_CRASH_SEED=<seed>.
 */
const SEED = Number(process.env.BERTH_CRASH_SEED ?? Date.now() % 2_147_483_647);
const KILLS = Number(process.env.BERTH_CRASH_KILLS ?? (process.env.BERTH_SOAK === '1' ? 200 : 40));
const HERE = dirname(fileURLToPath(import.meta.url));
/** atomicWriteFile's temp files: `.<name>.<pid>.<hex>.tmp`. */
const TEMP_FILE = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;

let work: string;
let writerBundle: string;

beforeAll(async () => {
  console.log(`crash-safety seed: ${SEED}, ${KILLS} kills (replay with BERTH_CRASH_SEED=${SEED})`);
  work = await mkdtemp(join(tmpdir(), 'berth-crash-'));
  // One bundled file starts in a fraction of tsx's time, which is what makes hundreds of kills affordable.
  writerBundle = join(work, 'crash-writer.mjs');
  await build({
    entryPoints: [resolve(HERE, 'fixtures/crash-writer.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: writerBundle,
    logLevel: 'error',
    // jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow; its ESM build bundles.
    mainFields: ['module', 'main'],
    // Bundled CommonJS dependencies still call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __berthRequire } from 'node:module'; const require = __berthRequire(import.meta.url);",
    },
  });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

interface WriterRun {
  /** The last write each store reported finished. */
  done: Partial<Record<CrashStore, number>>;
  ready: boolean;
  stderr: string;
  /** Set when the writer ended by itself (it never should). */
  exitCode: number | null;
}

const sleep = (ms: number): Promise<void> => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Run the writer once and SIGKILL it at a moment chosen by `rng`: mostly mid-writing, sometimes still starting. */
async function runAndKill(input: CrashWriterInput, rng: Rng): Promise<WriterRun> {
  const child = spawn(process.execPath, [writerBundle, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: WriterRun = { done: {}, ready: false, stderr: '', exitCode: null };
  let buffered = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolveReady) => (onReady = resolveReady));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const done = /^done (\S+) (\d+)$/.exec(line);
      if (done) run.done[done[1] as CrashStore] = Number(done[2]);
      else if (line === 'ready') {
        run.ready = true;
        onReady();
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
  const exited = new Promise<void>((resolveExit) =>
    child.on('exit', (code) => {
      run.exitCode = code;
      onReady();
      resolveExit();
    }),
  );
  if (rng() < 0.15) await sleep(rng() * 150);
  else {
    await ready;
    await sleep(rng() * 150);
  }
  child.kill('SIGKILL');
  await exited;
  return run;
}

async function leftoverTempFiles(configDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of [configDir, join(configDir, 'state'), join(configDir, 'conversations')]) {
    const names = await readdir(dir).catch(() => [] as string[]);
    found.push(...names.filter((name) => TEMP_FILE.test(name)).map((name) => join(dir, name)));
  }
  return found;
}

describe('crash safety: SIGKILL while writing', () => {
  it(`leaves every file at the old or the new version, and the next start loads them (${KILLS} kills)`, async () => {
    const rng = createRng(SEED);
    const configDir = join(work, 'config');
    const folder = join(work, 'folder');
    await mkdir(folder, { recursive: true });
    const roots = await RootsStore.open({ stateDir: join(configDir, 'state'), warn: (text) => expect.fail(text) });
    const root = await roots.add(folder, rootName(0));
    const conversation = await (await ConversationStore.open({ dir: configDir })).create({ model: 'claude-test' });
    const input: CrashWriterInput = {
      configDir,
      rootId: root.id,
      conversationId: conversation.id,
      start: Object.fromEntries(CRASH_STORES.map((store) => [store, 0])) as Record<CrashStore, number>,
    };

    let killedMidWrite = 0;
    for (let kill = 1; kill <= KILLS; kill += 1) {
      const run = await runAndKill(input, rng);
      const where = `seed ${SEED}, kill ${kill}`;
      expect(run.exitCode, `${where}: the writer ended by itself: ${run.stderr}`).toBeNull();
      expect(run.stderr, `${where}: a store complained at start-up`).toBe('');
      if ((await leftoverTempFiles(configDir)).length > 0) killedMidWrite += 1;
      for (const store of CRASH_STORES) {
        const finished = run.done[store] ?? input.start[store];
        const onDisk = await readState(store, configDir, conversation.id).catch(
          (error: unknown) => `unparsable: ${(error as Error).message}`,
        );
        // The write in flight at the kill may or may not have landed: either whole version is fine, nothing else.
        const version = [finished, finished + 1].find((w) => isDeepStrictEqual(onDisk, expectedState(store, w)));
        expect(
          version,
          `${where}: ${store} holds ${JSON.stringify(onDisk)}, expected write ${finished} or ${finished + 1}`,
        ).toBeDefined();
        input.start[store] = version ?? finished;
      }
    }
    console.log(
      `crash-safety: ${killedMidWrite} of ${KILLS} kills left an interrupted write; versions reached ${JSON.stringify(input.start)}`,
    );
    // Otherwise the test proved nothing: the kills must have landed inside writes, and every store must have written.
    expect(killedMidWrite).toBeGreaterThan(0);
    for (const store of CRASH_STORES) expect(input.start[store], store).toBeGreaterThan(0);

    const harness = await startHost(configDir);
    try {
      const warnings = await harness.call<{ entries: Array<{ text: string }> }>('logs.query', { minLevel: 'warning' });
      expect(warnings.entries.map((entry) => entry.text)).toEqual([]);
      expect(await harness.call<ConfigStatus>('config.status', {})).toMatchObject({ state: 'ok' });
      const saved = await harness.call<Conversation>('chat.get', { id: conversation.id });
      expect(saved.messages.map((message) => message.content[0])).toEqual(
        (expectedState('conversation', input.start.conversation) as string[]).map((text) => ({ type: 'text', text })),
      );
      const policies = await harness.call<ConsentPolicy[]>('consent.policies', {});
      expect(policies.map((policy) => (policy.scope === 'tool' ? policy.tool : policy.scope))).toEqual(
        expectedState('policies', input.start.policies),
      );
      // The start swept what the kills left: nothing half-written waits to be read later.
      expect(await leftoverTempFiles(configDir)).toEqual([]);
    } finally {
      await harness.host.shutdown();
    }
  }, 600_000);
});
