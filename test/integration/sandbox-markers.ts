import { copyFile, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Markers for "nothing of a server's configured env acts outside the
 * sandbox": variables that make a shell, the dynamic loader, Node or Python
 * run or load something, each pointing into a folder the sandbox cannot
 * write. A `fired-*` file there can only have been made outside the
 * sandbox; a marker library mapped by a process of this PID namespace was
 * loaded outside it.
 */
export interface EnvMarkers {
  dir: string;
  /** The variables to put in a server's configured env. */
  env: Record<string, string>;
  /** A real library (a copy of libm) preloaded by LD_PRELOAD. */
  preload: string;
  /** A folder holding a copy of libc, first on LD_LIBRARY_PATH. */
  libs: string;
}

/** The shared library file this process has loaded whose name matches. */
async function loadedLibrary(name: RegExp): Promise<string> {
  const path = (await mapsOf(process.pid))
    .split('\n')
    .map((line) => line.split(/\s+/).at(5) ?? '')
    .find((file) => name.test(file));
  if (path === undefined) throw new Error(`no library matching ${String(name)} is loaded by this process`);
  return path;
}

async function mapsOf(pid: number): Promise<string> {
  try {
    return await readFile(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return '';
  }
}

/** Plants the markers in `<parent>/markers` (`parent` must not be writable in the sandbox). */
export async function plantEnvMarkers(parent: string): Promise<EnvMarkers> {
  const dir = join(parent, 'markers');
  const libs = join(dir, 'lib');
  await mkdir(libs, { recursive: true });
  const preload = join(dir, 'libberth-preload-marker.so');
  await copyFile(await loadedLibrary(/\/libm\.so\.6$/), preload);
  await copyFile(await loadedLibrary(/\/libc\.so\.6$/), join(libs, 'libc.so.6'));
  await writeFile(
    join(dir, 'node-options.cjs'),
    `try { require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'fired-node-options-'))} + process.pid, ''); } catch {}\nprocess.stderr.write('node-options marker ran\\n');\n`,
  );
  await writeFile(join(dir, 'startup.py'), `open(${JSON.stringify(join(dir, 'fired-python'))}, 'w')\n`);
  return {
    dir,
    preload,
    libs,
    env: {
      BASH_ENV: `$(touch ${join(dir, 'fired-bash-env')})`,
      ENV: `$(touch ${join(dir, 'fired-env')})`,
      LD_PRELOAD: preload,
      LD_LIBRARY_PATH: libs,
      NODE_OPTIONS: `--require ${join(dir, 'node-options.cjs')}`,
      PYTHONSTARTUP: join(dir, 'startup.py'),
    },
  };
}

/** The `fired-*` files: each made by a marker that ran outside the sandbox. */
export async function firedMarkers(markers: EnvMarkers): Promise<string[]> {
  return (await readdir(markers.dir)).filter((name) => name.startsWith('fired-'));
}

/** The process and all its descendants, split by whether they run in this process's PID namespace (outside the sandbox) or another (inside). */
export async function treeByNamespace(root: number): Promise<{ outside: number[]; inside: number[] }> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  const ours = await readlink('/proc/self/ns/pid');
  const split = { outside: [] as number[], inside: [] as number[] };
  for (const pid of tree) {
    try {
      ((await readlink(`/proc/${pid}/ns/pid`)) === ours ? split.outside : split.inside).push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return split;
}

/**
 * What fired outside the sandbox for the server Berth spawned as `spawned`
 * (running): `fired-*` files, and processes outside it that loaded a marker
 * library; with how many processes were looked at outside (the wrapper
 * itself at least) and whether the server, inside, loaded both libraries
 * (so the variables did reach it).
 */
export async function markerTraces(
  markers: EnvMarkers,
  spawned: number,
): Promise<{ fired: string[]; outsideLoaded: string[]; outsideCount: number; insideLoaded: boolean }> {
  const fired = await firedMarkers(markers);
  const { outside, inside } = await treeByNamespace(spawned);
  const outsideLoaded: string[] = [];
  for (const pid of outside) {
    const maps = await mapsOf(pid);
    if (maps.includes(markers.preload) || maps.includes(markers.libs))
      outsideLoaded.push(`process ${pid} (${(await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '?')).trim()})`);
  }
  const insideMaps = await Promise.all(inside.map(mapsOf));
  const insideLoaded = insideMaps.some(
    (maps) => maps.includes(markers.preload) && maps.includes(join(markers.libs, 'libc.so.6')),
  );
  return { fired, outsideLoaded, outsideCount: outside.length, insideLoaded };
}
