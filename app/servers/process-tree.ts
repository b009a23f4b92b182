import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/**
 * Helpers to signal and observe a server's whole process tree. On POSIX each
 * server leads its own process group, so the group id is the server's pid and
 * one signal reaches every descendant that did not leave the group.
 */

const isLinux = process.platform === 'linux';

/** Field 3 (state) and field 5 (pgrp) of /proc/<pid>/stat; the command name may hold spaces and parens. */
function readStat(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const pgrp = Number(fields[2]);
    return state === undefined || !Number.isInteger(pgrp) ? undefined : { state, pgrp };
  } catch {
    return undefined;
  }
}

/**
 * A zombie is dead but not yet reaped: in a container whose init does not
 * reap orphans, `kill(pid, 0)` keeps succeeding for it forever, so on Linux we
 * look at the real state.
 */
function isZombie(pid: number): boolean {
  return isLinux && readStat(pid)?.state === 'Z';
}

/** Whether `pid` is a live (non-zombie) process. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** Live (non-zombie) members of a process group, from /proc (Linux only). */
export function groupMembersLinux(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return members;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readStat(pid);
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z') members.push(pid);
  }
  return members;
}

/** Whether any live process is left in the group `pgid` (POSIX). */
export function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // kill() also succeeds when only zombies remain; /proc tells them apart.
  return isLinux ? groupMembersLinux(pgid).length > 0 : true;
}

/** Send `signal` to every process in the group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Poll `condition` until it holds or `timeoutMs` passes; resolves whether it held. */
export async function waitFor(condition: () => boolean, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Windows has no process groups we can signal: `taskkill /T /F` walks the tree from the parent pid. */
export function killTreeWindows(pid: number): Promise<void> {
  return new Promise((resolve) => {
    execFile('taskkill', ['/T', '/F', '/PID', String(pid)], { windowsHide: true }, () => resolve());
  });
}
