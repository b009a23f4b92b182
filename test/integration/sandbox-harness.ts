import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TopicName } from '../../shared/contract';
import type { SandboxServerSettings, SandboxSupport } from '../../shared/domain/sandbox';
import type { ServerConfig } from '../../shared/domain/server';
import { berthPaths } from '../../app/config/paths';
import { createEventHub } from '../../app/events/event-hub';
import { RootsService } from '../../app/roots/roots-service';
import { PendingRequests } from '../../app/pending/pending-requests';
import { givenRootFolders } from '../../app/sandbox/create-sandbox';
import { SandboxService } from '../../app/sandbox/sandbox-service';
import { sandboxSupport } from '../../app/sandbox/sandbox-runtime';
import { SandboxSettingsStore } from '../../app/sandbox/sandbox-settings-store';
import { plainLaunch } from '../../app/servers/server-launch';
import { ServerLifecycle } from '../../app/servers/server-lifecycle';
import { ServerSupervisor } from '../../app/servers/supervisor';
import { ServerConnection } from '../../app/servers/server-connection';
import { LogCollector, tempDir, waitUntil } from '../../app/servers/test-support';

/** Why the sandbox tests cannot run here, or undefined when they can (Linux with bubblewrap, socat, ripgrep). */
export async function sandboxSkipReason(): Promise<string | undefined> {
  if (process.platform !== 'linux') return `the sandbox integration tests run on Linux (this is ${process.platform})`;
  const support = await sandboxSupport();
  return support.available
    ? undefined
    : `sandbox unavailable: ${support.reason ?? '?'}${support.install === undefined ? '' : ` — ${support.install}`}`;
}

/**
 * The host's pieces for a sandboxed server — supervisor, roots (the person's
 * answers scripted: every asked root allowed), the sandbox service wrapping
 * the launch — around real processes, with HOME pointed at a temp folder
 * holding a planted ~/.ssh/id_rsa.
 */
export interface SandboxRig {
  dir: string;
  home: string;
  configDir: string;
  logs: LogCollector;
  roots: RootsService;
  supervisor: ServerSupervisor;
  sandbox: SandboxService;
  events: Array<{ topic: TopicName; payload: unknown }>;
  setSandbox(server: string, settings: Partial<SandboxServerSettings>): Promise<void>;
  callJson(server: string, tool: string, args: Record<string, unknown>): Promise<{ ok: boolean; detail: string }>;
  callText(server: string, tool: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Starts (or re-syncs) the servers and waits until each is ready. */
  sync(servers: Record<string, ServerConfig>): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@linkcode startSandboxRig}. */
export interface SandboxRigOptions {
  support?: () => Promise<SandboxSupport>;
  /** Berth's config folder where Linux puts it, `~/.config/berth`, instead of beside home. */
  configInHome?: boolean;
  /** Runs before the host's pieces open (files a previous run of Berth would have left). */
  prepare?: (dirs: { home: string; configDir: string; stateDir: string }) => Promise<void>;
  /** Loopback ports "Berth" listens on (browser mode's bridge and app sandbox). */
  ownPorts?: () => readonly number[];
}

export async function startSandboxRig(options: SandboxRigOptions = {}): Promise<SandboxRig> {
  const temp = await tempDir('berth-sandbox-it-');
  const home = join(temp.path, 'home');
  const configDir = options.configInHome === true ? join(home, '.config', 'berth') : join(temp.path, 'config');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- planted\n');
  await mkdir(configDir, { recursive: true });
  const paths = berthPaths(configDir);
  await options.prepare?.({ home, configDir, stateDir: paths.stateDir });
  const logs = new LogCollector();
  const pending = new PendingRequests();
  const hub = createEventHub();
  const events: SandboxRig['events'] = [];
  hub.subscribe((topic, payload) => events.push({ topic, payload }));
  const errors: string[] = [];
  const reportError = (what: string, error: unknown): void => void errors.push(`${what}: ${String(error)}`);
  pending.onChange(({ change }) => {
    if (change.type !== 'opened' || change.request.kind !== 'root-consent') return;
    const request = change.request;
    setImmediate(() => pending.answer(request.id, { allow: request.payload.roots.map((root) => root.id) }));
  });
  const settings = await SandboxSettingsStore.open({ configDir, warn: (text) => errors.push(`warn: ${text}`) });
  let roots: RootsService | undefined = undefined;
  let sandbox: SandboxService | undefined = undefined;
  // Every log line reaches the sandbox, as the host's log batches do.
  const sink = {
    append: (entry: Parameters<LogCollector['append']>[0]) => {
      logs.append(entry);
      sandbox?.sawLogs([entry]);
    },
  };
  const lifecycle = new ServerLifecycle({ reportError });
  const env = { ...process.env, HOME: home };
  const supervisor: ServerSupervisor = new ServerSupervisor({
    logs: sink,
    stateDir: paths.stateDir,
    env,
    onState: (state) => lifecycle.serverChanged(state),
    clientSetup: (server, client) => lifecycle.clientSetup(server, client),
    openConnection: (options) => service.watchConnections(ServerConnection.open)(options),
    prepareLaunch: (name: string, config: ServerConfig) =>
      service.wrap(async (_name: string, c: ServerConfig) => plainLaunch(c, env))(name, config),
  });
  const service: SandboxService = new SandboxService({
    paths,
    settings,
    servers: supervisor,
    rootsOf: (server) => (roots === undefined ? [] : givenRootFolders(roots, server)),
    events: hub,
    logs: sink,
    reportError,
    home,
    ...(options.support === undefined ? {} : { support: options.support }),
    ...(options.ownPorts === undefined ? {} : { ownPorts: options.ownPorts }),
  });
  sandbox = service;
  lifecycle.register(service);
  roots = await RootsService.open({
    stateDir: paths.stateDir,
    shell: 'browser',
    servers: supervisor,
    knownServers: () => supervisor.list().map((s) => s.name),
    pending,
    events: hub,
    logs: sink,
    checkIntervalMs: 0,
    warn: (text) => errors.push(`warn: ${text}`),
    reportError,
  });
  lifecycle.register(roots);
  const openRoots = roots;
  service.watchRoots((listener) => openRoots.store.onChange(listener));

  const callText = async (
    server: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean }> => {
    const result: CallToolResult = await supervisor.callTool(server, tool, args);
    const text = result.content
      .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
      .join('\n');
    return { text, isError: result.isError === true };
  };

  return {
    dir: temp.path,
    home,
    configDir,
    logs,
    roots,
    supervisor,
    sandbox: service,
    events,
    async setSandbox(server, patch) {
      const current = settings.get(server);
      await settings.set(server, { ...current, ...patch });
    },
    callText,
    async callJson(server, tool, args) {
      const { text } = await callText(server, tool, args);
      return JSON.parse(text) as { ok: boolean; detail: string };
    },
    async sync(servers) {
      await supervisor.sync(servers);
      for (const name of Object.keys(servers))
        await waitUntil(() => supervisor.get(name)?.status === 'ready', 30_000, `${name} to be ready`);
    },
    async close() {
      await openRoots.close();
      await supervisor.shutdown();
      await service.close();
      await rm(temp.path, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`unexpected host errors: ${errors.join('; ')}`);
    },
  };
}

/** Pids (as this host sees them) whose command line holds `marker`. */
export async function pidsWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) found.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

export { waitUntil };
