import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import spawn from 'cross-spawn';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { corkUntilTickEnd } from '../tick-cork';
import { LineSplitter } from './line-splitter';
import { groupMembersLinux, isGroupAlive, killTreeWindows, signalGroup, waitFor } from './process-tree';
import { assertDirectory, explainSpawnError } from './spawn-errors';
import { readStdoutLine } from './stdout-messages';
import type { BatchVerdict } from './stdout-messages';
import { describeExit } from './process-stdio-options';
import type { ExitInfo, ProcessStdioHooks, ProcessStdioOptions } from './process-stdio-options';
import { OUTPUT_CLOSED } from '../../shared/domain/server-state-reasons';

export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
const DEFAULT_MAX_STDERR_LINE_BYTES = 8 * 1024;
/** After the group is gone, how long stdout may take to deliver what was already written. */
const STREAM_DRAIN_MS = 2_000;
/**
 * After stdout ends, how long the exit of the process may take to be
 * reported: a process that exits closes stdout too, and the two events come
 * in either order. Still running after this, it closed stdout on purpose.
 */
export const OUTPUT_CLOSED_GRACE_MS = 1_000;
const isWindows = process.platform === 'win32';

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} B`;
}

/**
 * A stdio transport that owns its server's whole process tree: the server
 * leads its own process group (POSIX) so shutdown reaches grandchildren, and
 * stdout is read with a bounded line reader that survives garbage instead of
 * closing the connection.
 *
 * It exposes `pid` and `stderr` so the SDK's `mode: 'auto'` treats it as
 * stdio (a silent probe means legacy), and deliberately has no `_dispose`, so
 * the SDK probes in place instead of spawning a sibling process.
 */
export class ProcessStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private started = false;
  /** The spawn in progress, so a close() that races start() still reaches the process. */
  private spawning: Promise<void> | undefined;
  private closeRequested = false;
  private escalating = false;
  private closeNotified = false;
  private exit: ExitInfo | undefined;
  private broken: string | undefined;
  /** Sends waiting for stdin to drain share this. */
  private room: Promise<void> | undefined;
  private resolveExited!: () => void;
  private readonly exited = new Promise<void>((resolve) => (this.resolveExited = resolve));
  private resolveStreamsClosed!: () => void;
  private readonly streamsClosed = new Promise<void>((resolve) => (this.resolveStreamsClosed = resolve));
  private resolveDone!: () => void;
  /** Resolves once the leader exited, its group is gone and onclose ran. */
  private readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));
  private readonly hooks: ProcessStdioHooks;
  private readonly stdoutLines: LineSplitter;
  private readonly stderrLines: LineSplitter;

  constructor(private readonly options: ProcessStdioOptions) {
    this.hooks = options.hooks ?? {};
    const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.stdoutLines = new LineSplitter({
      maxLineBytes: maxMessageBytes,
      overflow: 'discard',
      onLine: (line) => this.handleStdoutLine(line),
      onOverflow: (buffered) =>
        this.hooks.onStdoutGarbage?.(
          `stdout line is longer than the ${formatBytes(maxMessageBytes)} message limit (${formatBytes(buffered)} so far); discarding it up to the next newline`,
        ),
    });
    this.stderrLines = new LineSplitter({
      maxLineBytes: options.maxStderrLineBytes ?? DEFAULT_MAX_STDERR_LINE_BYTES,
      overflow: 'truncate',
      onLine: (line, truncated) =>
        this.hooks.onStderrLine?.(truncated ? `${line.toString('utf8')} … [line truncated]` : line.toString('utf8')),
    });
  }

  /** The server's pid once spawned; null before (and when the spawn failed). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The raw stderr stream (this transport already reads it line by line). */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  /** How the process ended; undefined while it runs. */
  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  /**
   * Why the link broke while the process still ran ("closed its output …"),
   * which Berth then stopped: a lost connection that the exit status
   * (Berth's own SIGTERM) would misdescribe. Undefined otherwise.
   */
  get brokenReason(): string | undefined {
    return this.broken;
  }

  start(): Promise<void> {
    if (this.started)
      return Promise.reject(new Error('ProcessStdioTransport already started; a transport runs one process once'));
    this.started = true;
    this.spawning = this.spawnChild();
    return this.spawning;
  }

  private async spawnChild(): Promise<void> {
    const { command, args = [], env = process.env, cwd, fd3Input } = this.options;
    if (cwd !== undefined) await assertDirectory(cwd);

    const child = spawn(command, args, {
      cwd,
      env,
      stdio: fd3Input === undefined ? ['pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', 'pipe'],
      // Own process group (POSIX), so one signal reaches the whole tree.
      detached: !isWindows,
      windowsHide: true,
      shell: false,
    });
    await new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onError);
        resolve();
      };
      const onError = (error: NodeJS.ErrnoException): void => {
        child.off('spawn', onSpawn);
        reject(explainSpawnError(error, { command, cwd, path: env.PATH ?? env.Path }));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
    this.child = child;
    this.attach(child);
    if (fd3Input !== undefined) this.writeFd3(child, fd3Input);
    if (child.pid !== undefined) this.hooks.onSpawn?.(child.pid);
    if (this.closeRequested) void this.escalate(child);
  }

  /** All of it, then EOF, so the reader knows it has everything and no later reader of the pipe finds anything. */
  private writeFd3(child: ChildProcess, input: Uint8Array): void {
    const pipe = child.stdio[3];
    if (pipe === null || pipe === undefined || !('write' in pipe)) return;
    // A child that exits before reading breaks the pipe (EPIPE): its exit is what gets reported.
    pipe.on('error', () => undefined);
    pipe.end(input);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || this.exit !== undefined || this.closeRequested || !stdin.writable) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, this.describeGone()));
    }
    const raw = JSON.stringify(message);
    this.hooks.onTrace?.('out', message, Buffer.byteLength(raw), raw);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: Error): void => {
        if (settled) return;
        settled = true;
        if (error === undefined) resolve();
        else reject(error);
      };
      // Messages sent in the same tick (many calls in flight) leave in one write(2).
      corkUntilTickEnd(stdin);
      const flushed = stdin.write(`${raw}\n`, (error) => {
        if (error)
          finish(new SdkError(SdkErrorCode.SendFailed, `could not write to the server's stdin: ${error.message}`));
      });
      if (flushed) {
        finish();
        return;
      }
      // Backpressure: the caller waits until the pipe has room again.
      this.roomIn(stdin).then(() => finish(), finish);
    });
  }

  /** Resolves when `stdin` drains; one pair of listeners however many sends wait for it. */
  private roomIn(stdin: NonNullable<ChildProcess['stdin']>): Promise<void> {
    this.room ??= new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        stdin.off('drain', onDrain);
        stdin.off('close', onClose);
        this.room = undefined;
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => settle();
      const onClose = (): void => settle(new SdkError(SdkErrorCode.SendFailed, this.describeGone()));
      stdin.once('drain', onDrain);
      stdin.once('close', onClose);
    });
    return this.room;
  }

  /**
   * MCP stdio shutdown: close stdin, wait, SIGTERM the group, wait, SIGKILL
   * the group. Resolves only when no process of the tree is left.
   */
  async close(): Promise<void> {
    if (this.child === undefined && this.spawning !== undefined) {
      this.closeRequested = true;
      await this.spawning.catch(() => undefined);
    }
    if (this.child === undefined) {
      this.closeRequested = true;
      this.notifyClose();
      return;
    }
    if (!this.escalating) {
      this.closeRequested = true;
      void this.escalate(this.child);
    }
    await this.done;
  }

  private attach(child: ChildProcess): void {
    child.stdout?.on('data', (chunk: Buffer) => this.stdoutLines.push(chunk));
    child.stdout?.on('end', () => this.onStdoutEnd(child));
    child.stderr?.on('data', (chunk: Buffer) => this.stderrLines.push(chunk));
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      // EPIPE after the server exited is expected; the exit itself is reported.
      if (this.exit === undefined && error.code !== 'EPIPE')
        this.onerror?.(new Error(`server stdin: ${error.message}`));
    });
    child.stdout?.on('error', (error) => this.onerror?.(new Error(`server stdout: ${error.message}`)));
    child.stderr?.on('error', (error) => this.onerror?.(new Error(`server stderr: ${error.message}`)));
    child.on('error', (error) => this.onerror?.(error));
    child.on('close', () => this.resolveStreamsClosed());
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.resolveExited();
      this.hooks.onExit?.(this.exit);
      void this.finish(child);
    });
  }

  /**
   * Nothing more can come from a server whose stdout ended: if its process
   * still runs after the grace, it is stopped (whole group) and the link
   * reported closed, so pending requests fail now instead of at their timeout.
   */
  private onStdoutEnd(child: ChildProcess): void {
    if (this.exit !== undefined || this.closeRequested) return;
    setTimeout(() => {
      if (this.exit !== undefined || this.closeRequested) return;
      this.broken = OUTPUT_CLOSED;
      this.hooks.onBroken?.(this.broken);
      this.closeRequested = true;
      void this.escalate(child, 0);
    }, OUTPUT_CLOSED_GRACE_MS);
  }

  private async escalate(child: ChildProcess, shutdownGraceMs = this.options.shutdownGraceMs ?? 2_000): Promise<void> {
    if (this.escalating || this.exit !== undefined) return;
    this.escalating = true;
    const pid = child.pid as number;
    try {
      child.stdin?.end();
    } catch {
      // A stdin that is already gone cannot be closed; escalation continues.
    }
    if (await this.exitedWithin(shutdownGraceMs)) return;
    if (isWindows) {
      await killTreeWindows(pid);
      return;
    }
    signalGroup(pid, 'SIGTERM');
    if (await this.exitedWithin(this.options.terminateGraceMs ?? 2_000)) return;
    signalGroup(pid, 'SIGKILL');
    try {
      child.kill('SIGKILL');
    } catch {
      // Already dead: the exit event finishes the close.
    }
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  /** After the leader exited: reap the rest of its group, drain stdout, then report the close. */
  private async finish(child: ChildProcess): Promise<void> {
    const pid = child.pid as number;
    if (!isWindows) await this.reapGroup(pid);
    let drainTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.streamsClosed,
      new Promise<void>((resolve) => (drainTimer = setTimeout(resolve, STREAM_DRAIN_MS))),
    ]);
    clearTimeout(drainTimer);
    this.stdoutLines.flush();
    this.stderrLines.flush();
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.stdin?.destroy();
    child.stdio[3]?.destroy();
    this.notifyClose();
    this.resolveDone();
  }

  /** Members of the group that outlived the leader get SIGTERM, then SIGKILL. */
  private async reapGroup(pgid: number): Promise<void> {
    if (!isGroupAlive(pgid)) return;
    const members = process.platform === 'linux' ? groupMembersLinux(pgid) : [];
    const which = members.length > 0 ? ` (pid ${members.join(', ')})` : '';
    this.hooks.onLeftovers?.(`processes of its group outlived it${which}; sending SIGTERM`);
    signalGroup(pgid, 'SIGTERM');
    if (await waitFor(() => !isGroupAlive(pgid), this.options.terminateGraceMs ?? 2_000)) return;
    this.hooks.onLeftovers?.(`processes of its group ignored SIGTERM; sending SIGKILL`);
    signalGroup(pgid, 'SIGKILL');
    if (await waitFor(() => !isGroupAlive(pgid), 5_000)) return;
    this.onerror?.(new Error(`processes of group ${pgid} survived SIGKILL`));
  }

  private handleStdoutLine(line: Buffer): void {
    if (line.length === 0) return;
    const raw = line.toString('utf8');
    const read = readStdoutLine(raw);
    if (read.kind === 'garbage') this.hooks.onStdoutGarbage?.(read.description);
    else if (read.kind === 'batch') this.handleBatch(read.batch);
    else if (read.kind === 'message') {
      this.hooks.onTrace?.('in', read.message, line.length, raw);
      this.deliver(read.message);
    }
  }

  /** A JSON-RPC batch (see readBatch): the requests it answered fail, the server's own requests in it are refused. */
  private handleBatch(batch: BatchVerdict): void {
    this.hooks.onStdoutGarbage?.(
      `stdout line is ${batch.description}, which MCP does not allow; failing the requests it answered`,
    );
    for (const refusal of batch.refusals)
      this.send(refusal).catch((error: unknown) =>
        this.onerror?.(error instanceof Error ? error : new Error(String(error))),
      );
    for (const answer of batch.failedAnswers) this.deliver(answer);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private notifyClose(): void {
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.onclose?.();
  }

  private describeGone(): string {
    if (this.broken !== undefined) return `server ${this.broken}`;
    if (this.exit !== undefined) return `server process exited (${describeExit(this.exit)})`;
    if (this.closeRequested) return 'server process is shutting down';
    return this.started ? 'server process is not running' : 'server process was not started';
  }
}
