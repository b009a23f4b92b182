import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadStateFile, removeInterruptedWrites } from './state-file';

const Schema = z.object({ count: z.number() });
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadStateFile', () => {
  it('reports a missing file and loads a valid one', async () => {
    const file = join(dir, 'state.json');
    expect(await loadStateFile(file, Schema, () => 1)).toEqual({ kind: 'missing' });
    await writeFile(file, '{"count":3}');
    expect(await loadStateFile(file, Schema, () => 1)).toEqual({ kind: 'loaded', data: { count: 3 } });
  });

  it('moves an unparsable or wrongly shaped file aside and says why', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{"count":');
    const broken = await loadStateFile(file, Schema, () => 7);
    expect(broken).toMatchObject({ kind: 'unusable', message: expect.stringContaining('not valid JSON') });
    expect(await readdir(dir)).toEqual(['state.json.corrupt-7']);

    await writeFile(file, '{"count":"three"}');
    const shaped = await loadStateFile(file, Schema, () => 8);
    expect(shaped).toMatchObject({ kind: 'unusable', message: expect.stringContaining('count:') });
    expect(shaped.kind === 'unusable' && shaped.saveBlocked).toBeFalsy();
    expect((await readdir(dir)).sort()).toEqual(['state.json.corrupt-7', 'state.json.corrupt-8']);
  });

  it('blocks saving when the file cannot be read', async () => {
    const file = join(dir, 'is-a-dir');
    await (await import('node:fs/promises')).mkdir(file);
    const result = await loadStateFile(file, Schema, () => 1);
    expect(result).toMatchObject({ kind: 'unusable', saveBlocked: expect.stringContaining('could not be read') });
  });

  it('says where the file went and what was wrong, for callers that word their own message', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{"count":"three"}');
    expect(await loadStateFile(file, Schema, () => 9)).toMatchObject({
      kind: 'unusable',
      problem: expect.stringContaining('count:'),
      movedTo: `${file}.corrupt-9`,
    });
  });

  it('can leave out the parser quoting the text (for files holding secrets)', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{"count": sk-secret-value');
    const quiet = await loadStateFile(file, Schema, () => 1, { quoteParseError: false });
    expect(quiet).toMatchObject({ kind: 'unusable', problem: 'not valid JSON' });
    expect(JSON.stringify(quiet)).not.toContain('sk-secret');
  });

  it('sweeps temp files that a crash left beside the file, keeping those of live writers and other files', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{"count":1}');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const names = {
      crashed: `.state.json.${dead}.abc123.tmp`,
      live: `.state.json.${process.pid}.abc123.tmp`,
      otherFile: `.other.json.${dead}.abc123.tmp`,
      notOurs: '.state.json.tmp',
    };
    for (const name of Object.values(names)) await writeFile(join(dir, name), '{"count":');
    expect(await loadStateFile(file, Schema, () => 1)).toEqual({ kind: 'loaded', data: { count: 1 } });
    expect((await readdir(dir)).sort()).toEqual([names.live, names.otherFile, names.notOurs, 'state.json'].sort());

    // Without a target, every crashed write in the folder goes.
    expect(await removeInterruptedWrites(dir)).toEqual([names.otherFile]);
  });
});
