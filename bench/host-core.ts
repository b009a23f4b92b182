import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConfigSchema } from '../shared/domain/server';
import type { ServerState } from '../shared/domain/server';
import { createEventHub } from '../app/events/event-hub';
import { berthPaths } from '../app/config/paths';
import { serverIdentity } from '../app/consent/approval-fingerprint';
import { ConsentBroker } from '../app/consent/consent-broker';
import { POLICIES_FILE } from '../app/consent/policy-store';
import { RunningToolCalls } from '../app/pending/running-tool-calls';
import { LogHub } from '../app/logs/log-hub';
import { PendingRequests } from '../app/pending/pending-requests';
import { ServerSupervisor } from '../app/servers/supervisor';
import type { BenchClient } from './clients';
import { ECHO_SERVER } from './clients';

export const SERVER_NAME = 'echo';
const CONVERSATION_ID = 'bench-conversation';

/**
 * Berth's tool-call path without the model: the pieces createHost wires
 * (LogHub with log files and the logs.appended event, ServerSupervisor with
 * its tracing ServerConnection, ConsentBroker with a stored server-wide "allow"
 * policy and its audit log, RunningToolCalls), called in the order ChatService's
 * gate and runner call them for each tool_use:
 *   consent.approveToolCall → toolCalls.tag → toolCalls.run(supervisor.callTool).
 * createHost exposes only the contract, and no contract method calls a tool
 * (tools are called by the chat engine), so the pieces are composed here.
 */
export async function openHostCore(): Promise<BenchClient & { configDir: string; logBatches: () => number }> {
  const configDir = await mkdtemp(join(tmpdir(), 'berth-bench-core-'));
  const paths = berthPaths(configDir);
  await mkdir(paths.stateDir, { recursive: true });
  const serverConfig = ServerConfigSchema.parse({ command: process.execPath, args: [ECHO_SERVER] });
  const identity = serverIdentity(serverConfig);
  // Pre-approved as the consent UI would store "allow this server" (for this command): no prompt is ever opened.
  await writeFile(
    join(paths.stateDir, POLICIES_FILE),
    JSON.stringify({
      version: 2,
      policies: [
        {
          id: randomUUID(),
          scope: 'server',
          server: SERVER_NAME,
          createdAt: Date.now(),
          approval: { server: identity },
        },
      ],
    }),
  );
  const events = createEventHub();
  let batches = 0;
  const logs = new LogHub({
    onBatch: (entries) => {
      batches++;
      events.emit('logs.appended', { entries });
    },
    // As createHost: no window follows the trace here (no Logs view is open).
    liveTrace: 'when-followed',
    files: { dir: paths.logsDir },
  });
  const consent = new ConsentBroker({ stateDir: paths.stateDir, pending: new PendingRequests(), logs });
  const toolCalls = new RunningToolCalls();
  const ready = deferredReady(SERVER_NAME);
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: paths.stateDir,
    onState: ready.onState,
    env: process.env,
    clientVersion: 'bench',
  });
  await supervisor.sync({ [SERVER_NAME]: serverConfig });
  await ready.promise;

  let toolUse = 0;
  return {
    label: 'Berth host core (consent + tracing + log files)',
    configDir,
    logBatches: () => batches,
    callEcho: async (text) => {
      const toolUseId = `toolu_${++toolUse}`;
      const verdict = await consent.approveToolCall({
        conversationId: CONVERSATION_ID,
        server: SERVER_NAME,
        tool: 'echo',
        input: { text },
        toolUseId,
        serverIdentity: identity,
      });
      if (!verdict.allowed)
        throw new Error(`the stored policy did not allow the call: ${verdict.reason ?? verdict.decision}`);
      const args = { ...verdict.arguments };
      toolCalls.tag(args, { conversationId: CONVERSATION_ID, toolUseId });
      return toolCalls.run(SERVER_NAME, args, () => supervisor.callTool(SERVER_NAME, 'echo', args));
    },
    getEchoPrompt: () => Promise.reject(new Error('the host core bench calls tools only')),
    close: async () => {
      await supervisor.shutdown();
      await consent.flush();
      await logs.dispose();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}

/** Resolves when `name` reports ready; rejects when it fails or crashes first. */
export function deferredReady(name: string): { promise: Promise<void>; onState: (state: ServerState) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return {
    promise,
    onState: (state) => {
      if (state.name !== name) return;
      if (state.status === 'ready') resolve();
      if (state.status === 'error' || state.status === 'crashed')
        reject(new Error(`server '${name}' is ${state.status}: ${state.reason ?? 'no reason given'}`));
    },
  };
}
