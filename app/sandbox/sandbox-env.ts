import { delimiter, dirname } from 'node:path';
import { resolveExecutable } from '../servers/server-launch';

/**
 * How a sandboxed server gets its environment and command without either
 * touching a process outside the sandbox.
 *
 * The runtime's wrapper is an outer `bash -c` that runs `bwrap` (and, inside
 * it, the proxies' relay shell) before our line: a `BASH_ENV`, `LD_PRELOAD`,
 * `LD_LIBRARY_PATH`… in their environment acts outside the sandbox. So the
 * spawn gets a fixed, clean environment ({@linkcode wrapperEnv}), and the
 * server's own environment and command travel as records on the child's
 * fd 3 (a pipe Berth writes and closes right after the spawn). The innermost
 * shell line, already inside the sandbox, reads them with bash builtins,
 * closes fd 3 and `exec`s the server. Nothing of the server's config is on
 * any command line (argv is readable by every local user in /proc), and the
 * wrapped line is the same for every server.
 */

/** Folders the wrapper's own tools (bwrap, socat, sandbox-exec) are looked for in: written only by root. */
const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The tools the runtime's wrapper calls by name. */
const WRAPPER_TOOLS = ['bwrap', 'socat'];

/** Variables of Berth's own environment the wrapper keeps (values only: locale names and the home folder). */
const WRAPPER_KEEPS = ['HOME', 'LANG', 'LC_ALL'];

/**
 * PATH of the processes outside the sandbox: the system folders, then the
 * folder of any wrapper tool found only on Berth's own PATH (Nix,
 * Homebrew on Linux). Never the server's PATH, nor the login shell's: a
 * folder there may be one the sandboxed server can write (a root, a
 * relative entry), and a `bwrap` planted in it would run outside the next
 * time.
 */
export async function wrapperPath(berthPath: string | undefined = process.env.PATH): Promise<string> {
  const folders = [...SYSTEM_PATH];
  const system = folders.join(delimiter);
  for (const tool of WRAPPER_TOOLS) {
    if ((await resolveExecutable(tool, system)) !== undefined) continue;
    const absolute = (berthPath ?? '').split(delimiter).filter((folder) => folder.startsWith('/'));
    const found = await resolveExecutable(tool, absolute.join(delimiter));
    if (found !== undefined && !folders.includes(dirname(found))) folders.push(dirname(found));
  }
  return folders.join(delimiter);
}

/**
 * The whole environment of the wrapper (outer bash, bwrap, the relays'
 * shell): nothing from the server's config, nothing else of Berth's.
 * `SHLVL=1`: without it bash on a socket stdin takes itself for an rshd
 * session and reads ~/.bashrc (the start hung). No `TERM`: there is no
 * terminal, and terminfo lookups follow it.
 */
export function wrapperEnv(berthEnv: NodeJS.ProcessEnv, path: string): Record<string, string> {
  const env: Record<string, string> = { PATH: path, SHLVL: '1' };
  for (const name of WRAPPER_KEEPS) {
    const value = berthEnv[name];
    if (value !== undefined && value !== '' && !value.includes('\0')) env[name] = value;
  }
  return env;
}

/**
 * The innermost line, run by the sandbox's last shell: exports each `E`
 * record, collects `A` records as the argv, stops at `.`; a name bash
 * refuses is named on stderr (never its value); a stream cut short starts
 * nothing. `exec 3<&-` before the server runs: it never sees the pipe.
 */
export const INNER_LINE = [
  "_berth_ok=; set --; while IFS= read -r -d '' _berth_r <&3; do case $_berth_r in",
  'E*) _berth_r=${_berth_r#E}; export -- "$_berth_r" 2>/dev/null || printf \'berth: the variable %s could not be set in the sandbox; left out\\n\' "${_berth_r%%=*}" >&2 ;;',
  'A*) set -- "$@" "${_berth_r#A}" ;;',
  '.) _berth_ok=1; break ;;',
  'esac; done; exec 3<&-',
  '[ -n "$_berth_ok" ] || { echo \'berth: the sandboxed server did not receive its environment and command from Berth; not starting it\' >&2; exit 70; }',
  'unset _berth_r _berth_ok; exec "$@"',
].join('\n');

/** Variables bash keeps read-only: `export` of one fails. */
const BASH_READONLY = new Set(['BASHOPTS', 'BASH_VERSINFO', 'EUID', 'PPID', 'SHELLOPTS', 'UID']);

/** Why `name=value` cannot go through {@linkcode INNER_LINE}, or undefined when it can. */
export function unpassableReason(name: string, value: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return 'it is not a valid variable name (letters, digits and _, not starting with a digit)';
  if (BASH_READONLY.has(name)) return 'bash keeps it read-only';
  if (name.startsWith('_berth_')) return 'Berth uses the _berth_ prefix itself';
  if (value.includes('\0')) return 'its value holds a NUL character';
  return undefined;
}

/** The bytes of fd 3: the environment, then the argv, then the end mark (NUL-separated records). */
export function launchRecords(env: Record<string, string>, argv: readonly string[]): Buffer {
  const records = [
    ...Object.entries(env).map(([name, value]) => `E${name}=${value}`),
    ...argv.map((arg) => `A${arg}`),
    '.',
  ];
  return Buffer.from(records.map((record) => `${record}\0`).join(''), 'utf8');
}

/**
 * Names the runtime sets for the sandboxed process (its proxies, with the
 * per-run credentials): they win over anything the server's config says.
 * Linux: `bwrap --setenv NAME value`; macOS: `env NAME=value …
 * sandbox-exec`. The wrapped line holds no server data, so only the
 * runtime's own text can match (a stray match only leaves a variable to
 * the runtime).
 */
export function runtimeSetNames(wrapped: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const arg of wrapped) {
    for (const match of arg.matchAll(/(?:^|\s)--setenv\s+([A-Za-z_][A-Za-z0-9_]*)\s/g)) names.add(match[1] as string);
    const envPrefix = /^'?env'?\s([\s\S]*?)\S*sandbox-exec\b/.exec(arg)?.[1];
    if (envPrefix !== undefined)
      for (const match of envPrefix.matchAll(/(?:^|\s)'?([A-Za-z_][A-Za-z0-9_]*)=/g)) names.add(match[1] as string);
  }
  return names;
}

/** One variable left out of a sandboxed server's environment, and why (for its log). */
export interface LeftOutVariable {
  name: string;
  /** Its config set it (else it came from Berth's environment). */
  fromConfig: boolean;
  reason: string;
}

/**
 * The environment the server runs with, inside: Berth's filtered inherited
 * env, its config's env over it, Berth's fixed variables over both; the
 * runtime's own (proxy) variables are left for the runtime to set, except
 * those Berth sets on purpose (`TMPDIR`).
 */
export function insideEnv(parts: {
  inherited: NodeJS.ProcessEnv;
  config: Record<string, string>;
  fixed: Record<string, string>;
  runtimeNames: ReadonlySet<string>;
}): { env: Record<string, string>; leftOut: LeftOutVariable[] } {
  const has = (object: object, name: string): boolean => Object.prototype.hasOwnProperty.call(object, name);
  const merged: Record<string, string | undefined> = { ...parts.inherited, ...parts.config, ...parts.fixed };
  const env: Record<string, string> = {};
  const leftOut: LeftOutVariable[] = [];
  for (const [name, value] of Object.entries(merged)) {
    if (value === undefined) continue;
    const fromConfig = has(parts.config, name) && !has(parts.fixed, name);
    const runtimeSets = parts.runtimeNames.has(name) && !has(parts.fixed, name);
    const reason = runtimeSets ? 'the sandbox sets it itself (its network proxy)' : unpassableReason(name, value);
    if (reason === undefined) env[name] = value;
    // An inherited proxy setting quietly gives way to the sandbox's; anything else left out is said.
    else if (fromConfig || !runtimeSets) leftOut.push({ name, fromConfig, reason });
  }
  return { env, leftOut };
}
