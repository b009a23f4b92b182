import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TopicName } from '../../shared/contract';
import type { PendingRequestOf } from '../../shared/domain/pending';
import type { ServerConfig } from '../../shared/domain/server';
import { createEventHub } from '../../app/events/event-hub';
import { RootsService } from '../../app/roots/roots-service';
import { PendingRequests } from '../../app/pending/pending-requests';
import { ServerLifecycle } from '../../app/servers/server-lifecycle';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, serverConfig, tempDir, waitUntil } from '../../app/servers/test-support';

/** The stdio entry of an npm-installed server, from its package.json `bin` (as `packageBinEntry` in e2e resolves it). */
export function packageBin(pkg: string, bin: string): string {
  const dir = join(REPO_ROOT, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const entry = manifest.bin[bin];
  if (entry === undefined) throw new Error(`${pkg} has no bin named ${bin}`);
  return join(dir, entry);
}

export const filesystemServer = (): ServerConfig =>
  // No directory arguments: every folder it may touch comes from Berth's roots.
  serverConfig({
    command: process.execPath,
    args: [packageBin('@modelcontextprotocol/server-filesystem', 'mcp-server-filesystem')],
  });

export const everythingServer = (): ServerConfig =>
  serverConfig({
    command: process.execPath,
    args: [packageBin('@modelcontextprotocol/server-everything', 'mcp-server-everything'), 'stdio'],
  });

export type RootConsentRequest = PendingRequestOf<'root-consent'>;

/**
 * The person, in a test: answers each 'root-consent' request with the root ids
 * `decide` allows (default: every asked root), and remembers what was asked.
 */
export type Decide = (request: RootConsentRequest) => string[];

/**
 * The same modules the host wires together for roots — store, consent,
 * `roots/list` handler, pending queue, supervisor — around real servers, with
 * the person's answers scripted.
 */
export interface RootsRig {
  dir: string;
  logs: LogCollector;
  pending: PendingRequests;
  roots: RootsService;
  supervisor: ServerSupervisor;
  asked: RootConsentRequest[];
  events: Array<{ topic: TopicName; payload: unknown }>;
  decide: Decide;
  /** Text of a tool result. */
  callText(server: string, tool: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** How many `notifications/roots/list_changed` Berth sent to `server`. */
  listChangedSent(server: string): number;
  /** How many `roots/list` requests `server` made. */
  listRequests(server: string): number;
  close(): Promise<void>;
}

export async function startRootsRig(): Promise<RootsRig> {
  const temp = await tempDir('berth-roots-it-');
  const logs = new LogCollector();
  const pending = new PendingRequests();
  const events: RootsRig['events'] = [];
  const hub = createEventHub();
  hub.subscribe((topic, payload) => events.push({ topic, payload }));
  const errors: string[] = [];
  const rig = {
    asked: [] as RootConsentRequest[],
    decide: ((request) => request.payload.roots.map((r) => r.id)) as Decide,
  };
  pending.onChange(({ change }) => {
    if (change.type !== 'opened' || change.request.kind !== 'root-consent') return;
    const request = change.request;
    rig.asked.push(request);
    // Answer after open() returns, as a person clicking would.
    setImmediate(() => pending.answer(request.id, { allow: rig.decide(request) }));
  });
  // Created before the roots (which need it) and reporting to the lifecycle they join; servers start only when a test syncs them.
  const lifecycle = new ServerLifecycle({ reportError: (what, error) => errors.push(`${what}: ${String(error)}`) });
  const supervisor = new ServerSupervisor({
    logs,
    stateDir: join(temp.path, 'state'),
    onState: (state) => lifecycle.serverChanged(state),
    clientSetup: (server, client) => lifecycle.clientSetup(server, client),
  });
  const hostRoots = await RootsService.open({
    stateDir: join(temp.path, 'state'),
    shell: 'browser',
    servers: supervisor,
    knownServers: () => supervisor.list().map((s) => s.name),
    pending,
    events: hub,
    logs,
    checkIntervalMs: 0,
    warn: (text) => errors.push(`warn: ${text}`),
    reportError: (what, error) => errors.push(`${what}: ${String(error)}`),
  });
  lifecycle.register(hostRoots);

  const traceCount = (server: string, method: string, direction: 'in' | 'out'): number =>
    logs.for(server, 'trace').filter((entry) => entry.method === method && entry.direction === direction).length;

  return {
    dir: temp.path,
    logs,
    pending,
    roots: hostRoots,
    supervisor,
    events,
    get asked() {
      return rig.asked;
    },
    get decide() {
      return rig.decide;
    },
    set decide(value: Decide) {
      rig.decide = value;
    },
    async callText(server, tool, args = {}) {
      const result: CallToolResult = await supervisor.callTool(server, tool, args);
      const text = result.content
        .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
        .join('\n');
      return { text, isError: result.isError === true };
    },
    listChangedSent: (server) => traceCount(server, 'notifications/roots/list_changed', 'out'),
    listRequests: (server) => traceCount(server, 'roots/list', 'in'),
    async close() {
      await hostRoots.close();
      await supervisor.shutdown();
      await rm(temp.path, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`unexpected host errors: ${errors.join('; ')}`);
    },
  };
}

export { waitUntil };
