import type { JSONRPCMessage } from '@modelcontextprotocol/client';

/** How the server process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Observers of everything that crosses the process boundary. */
export interface ProcessStdioHooks {
  /** Every valid JSON-RPC message in or out; `raw` is its JSON text, `bytes` its UTF-8 size. */
  onTrace?: (direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, raw: string) => void;
  /** One line of stderr, already split, capped and decoded. */
  onStderrLine?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message, or one that was too long; described in words. */
  onStdoutGarbage?: (description: string) => void;
  onSpawn?: (pid: number) => void;
  /** The leader process exited (its group is swept afterwards). */
  onExit?: (info: ExitInfo) => void;
  /** Processes of the group outlived the leader and are being terminated. */
  onLeftovers?: (description: string) => void;
  /** The server broke the link while its process still ran (see `brokenReason`); it is being stopped. */
  onBroken?: (reason: string) => void;
}

/** What to run and how to treat its output. */
export interface ProcessStdioOptions {
  command: string;
  args?: string[];
  /** The complete environment of the child (callers merge the host's env with the server's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Bytes written to the child's fd 3 (a pipe) right after the spawn, then
   * closed: what a wrapper passes on without a command line or the
   * wrapper's own environment carrying it (the sandbox's launch).
   */
  fd3Input?: Uint8Array;
  /** Longest accepted stdout line; longer ones are discarded and reported. Default 32 MiB. */
  maxMessageBytes?: number;
  /** Longest stderr line kept; the rest of the line is cut. Default 8 KiB. */
  maxStderrLineBytes?: number;
  /** After stdin is closed, time for the server to exit by itself. Default 2 s. */
  shutdownGraceMs?: number;
  /** After SIGTERM, time before SIGKILL. Default 2 s. */
  terminateGraceMs?: number;
  hooks?: ProcessStdioHooks;
}

/** "code 1" / "signal SIGKILL", for messages. */
export function describeExit(info: ExitInfo | undefined): string {
  if (info === undefined) return 'an unknown status';
  return info.signal !== null ? `signal ${info.signal}` : `code ${info.code ?? 'unknown'}`;
}
