import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateToolName } from '../../app/chat/tool-names';
import { createHost } from '../../app/host';
import type { Host } from '../../app/host/host-types';
import { FakeAnthropic } from '../../e2e/fake-llm/fake-anthropic';
import type { FakeTurn, RecordedRequest } from '../../e2e/fake-llm/fake-anthropic';
import type { ChatEvent, ChatToolResultBlock, Conversation } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import type { ServerState } from '../../shared/domain/server';
import type { Result } from '../../shared/result';
import type { StartCommand } from './catalog';
import type { Observation } from './judge';

// Berth's side of `npm run test:servers`: every server in ONE host, built as the app builds it (createHost on a config
// dir listing them), and each server's call made the way a person's model makes it: a conversation, a local fake of
// the Messages API asking for the tool, the consent question answered "allow once", the result the card receives.

/** A server's start and its call, by Berth's config name. */
export interface BerthPlan {
  name: string;
  start: StartCommand;
  call: { tool: string; arguments: Record<string, unknown> };
}

/** Every server has this long to become ready (or fail) after the host opened; calls get as long again. */
const READY_TIMEOUT_MS = 120_000;
const CALL_TIMEOUT_MS = 120_000;
/** The key the fake API takes: nothing real, it never leaves the machine. */
const FAKE_API_KEY = 'sk-ant-test-real-servers';

function unwrap<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value as T;
}

/** The message the fake model reads to know which server's tool to call. */
const askFor = (server: string): string => `Call the test tool of server ${server}.`;

/**
 * The fake model: in a conversation asking for server X it calls X's tool with the planned arguments (by the name
 * Berth offered it under), then ends the turn once the result came back. Requests without tools (a title) get text.
 */
function fakeModel(plans: readonly BerthPlan[]) {
  return (request: RecordedRequest): FakeTurn => {
    const body = request.body;
    const first = body?.messages[0];
    const firstText = typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content ?? '');
    const plan = plans.find((candidate) => firstText.includes(askFor(candidate.name)));
    const last = body?.messages.at(-1);
    const answered =
      last !== undefined &&
      typeof last.content !== 'string' &&
      (last.content as Array<{ type: string }>).some((block) => block.type === 'tool_result');
    if (plan === undefined || answered || (body?.tools ?? []).length === 0) return { text: 'Done.' };
    // The name Berth gives the tool (readable `server__tool`, or with a hash where that would not do).
    const name = candidateToolName({ server: plan.name, tool: plan.call.tool });
    const offered = (body?.tools ?? []).some((tool) => (tool as { name?: string }).name === name);
    if (!offered) return { text: `Berth did not offer ${name}.` };
    return { toolUses: [{ name, input: plan.call.arguments }] };
  };
}

/** The key under which a 2026-07-28 request carries the client's capabilities (there is no initialize). */
const CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * The capabilities Berth declared to a server, read from its trace (the bare client declares the same): the
 * initialize request's, or (2026-07-28 era) those a request carries in its `_meta`.
 */
function declaredCapabilities(entries: readonly LogEntry[], server: string): Record<string, unknown> | undefined {
  for (const entry of entries) {
    if (entry.server !== server || entry.direction !== 'out' || entry.body === undefined) continue;
    let params: { capabilities?: unknown; _meta?: Record<string, unknown> } | undefined;
    try {
      params = (JSON.parse(entry.body) as { params?: typeof params }).params;
    } catch {
      continue; // A body cut for its size: look further.
    }
    const capabilities = entry.method === 'initialize' ? params?.capabilities : params?._meta?.[CAPABILITIES_META_KEY];
    if (capabilities !== null && typeof capabilities === 'object') return capabilities as Record<string, unknown>;
  }
  return undefined;
}

/** What Berth saw of each server, and the capabilities it declared to each. */
export interface BerthRun {
  observations: Map<string, Observation>;
  capabilities: Map<string, Record<string, unknown>>;
}

export async function observeBerth(plans: readonly BerthPlan[]): Promise<BerthRun> {
  const configDir = await mkdtemp(join(tmpdir(), 'berth-real-servers-'));
  const fake = await FakeAnthropic.start({ apiKey: FAKE_API_KEY, fallback: fakeModel(plans) });
  const servers = Object.fromEntries(
    plans.map((plan) => [plan.name, { command: plan.start.command, args: plan.start.args, env: plan.start.env }]),
  );
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ANTHROPIC_')));
  const host = await createHost({ configDir, shell: 'browser', env: { ...env, ANTHROPIC_BASE_URL: fake.url } });
  try {
    await dispatch(host, 'settings.setApiKey', { apiKey: FAKE_API_KEY });
    const states = await settled(
      host,
      plans.map((plan) => plan.name),
    );
    const observations = new Map<string, Observation>();
    await Promise.all(
      plans.map(async (plan) => {
        const state = states.get(plan.name);
        if (state?.status !== 'ready') {
          const reason = state === undefined ? 'no state' : 'reason' in state ? state.reason : state.status;
          observations.set(plan.name, { ready: false, failure: reason ?? state?.status, tools: [] });
          return;
        }
        observations.set(plan.name, {
          ready: true,
          protocolVersion: state.protocolVersion,
          era: state.era,
          tools: state.tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema })),
          call: await callThroughChat(host, plan),
        });
      }),
    );
    const { entries } = await dispatch<{ entries: LogEntry[] }>(host, 'logs.query', { limit: 250_000 });
    const capabilities = new Map<string, Record<string, unknown>>();
    for (const plan of plans) {
      const declared = declaredCapabilities(entries, plan.name);
      if (declared !== undefined) capabilities.set(plan.name, declared);
    }
    return { observations, capabilities };
  } finally {
    await host.shutdown();
    await fake.close();
    await rm(configDir, { recursive: true, force: true });
  }
}

async function dispatch<T = unknown>(host: Host, method: string, input: unknown): Promise<T> {
  return unwrap<T>(await host.dispatch(method, input));
}

/**
 * Each server's first state that is ready, an error or a crash, by name: the first start is compared (a bare client
 * does not start a server twice; Berth's restarts are tested elsewhere).
 */
function settled(host: Host, names: readonly string[]): Promise<Map<string, ServerState>> {
  const final = new Map<string, ServerState>();
  const latest = new Map<string, ServerState>();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      unsubscribe();
      for (const name of names) {
        if (final.has(name)) continue;
        const last = latest.get(name);
        final.set(name, {
          ...(last ?? { name, restartCount: 0 }),
          status: 'error',
          reason: `not ready within ${READY_TIMEOUT_MS / 1000} s (last: ${last?.status ?? 'no state'})`,
        } as ServerState);
      }
      resolve(final);
    };
    const see = (state: ServerState): void => {
      if (!names.includes(state.name) || final.has(state.name)) return;
      latest.set(state.name, state);
      if (state.status === 'ready' || state.status === 'error' || state.status === 'crashed')
        final.set(state.name, state);
      if (final.size === names.length) finish();
    };
    const timer = setTimeout(finish, READY_TIMEOUT_MS);
    const unsubscribe = host.subscribe((topic, payload) => {
      if (topic === 'servers.changed') see(payload as ServerState);
    });
    void host.dispatch('servers.list', {}).then((result) => {
      if (result.ok) for (const state of result.value as ServerState[]) see(state);
    });
  });
}

/** The call as a person's model makes it; the result block the card receives, or why there is none. */
async function callThroughChat(host: Host, plan: BerthPlan): Promise<Observation['call']> {
  const conversation = await dispatch<Conversation>(host, 'chat.create', {});
  // Every tool offered by name: the fake model calls the tool directly, as a model does below the search threshold.
  await dispatch(host, 'chat.setToolSearch', { id: conversation.id, mode: 'off' });
  let unsubscribe = (): void => undefined;
  const finished = new Promise<ChatToolResultBlock | string>((resolve) => {
    unsubscribe = host.subscribe((topic, payload) => {
      if (topic === 'pending.changed') {
        const change = (payload as { change: { type: string; request: { id: string; kind: string } } }).change;
        // Only this conversation's question is answered; the others' are theirs.
        const request = change.request as { id: string; kind: string; conversationId?: string };
        if (change.type === 'opened' && request.kind === 'tool-call' && request.conversationId === conversation.id)
          void host.dispatch('pending.answer', { id: request.id, response: { decision: 'allow-once' } });
      }
      if (topic !== 'chat.event') return;
      const event = payload as ChatEvent;
      if (event.conversationId !== conversation.id) return;
      if (event.type === 'tool-call-finished') resolve(event.result ?? 'the call finished without a result');
      if (event.type === 'turn-failed') resolve(`the turn failed: ${event.message}`);
      if (event.type === 'turn-finished') resolve('the turn ended without calling the tool');
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no result within ${CALL_TIMEOUT_MS / 1000} s`), CALL_TIMEOUT_MS);
  });
  try {
    await dispatch(host, 'chat.send', { id: conversation.id, text: askFor(plan.name) });
    const outcome = await Promise.race([finished, timeout]);
    if (typeof outcome === 'string') return { error: outcome };
    if (outcome.denied !== undefined) return { error: `the call was not allowed (${outcome.denied.reason ?? ''})` };
    return {
      result: { content: outcome.content, structuredContent: outcome.structuredContent, isError: outcome.isError },
    };
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
