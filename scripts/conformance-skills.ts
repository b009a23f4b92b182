/**
 * The skills (SEP-2640) part of the conformance adapter: Berth's own skill
 * catalog and loader (app/skills) over one open connection, as the host runs
 * them over the supervisor. The person is the adapter's stand-in: it picks
 * the first listed skill from the composer and allows it when asked.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig, ServerState } from '../shared/domain/server';
import type { PendingRequests } from '../app/pending/pending-requests';
import type { ServerConnection } from '../app/servers/server-connection';
import { SkillsService } from '../app/skills/skills-service';

/** The supervisor's view of one connection, for the skills service. */
function oneServer(name: string, config: ServerConfig, connection: ServerConnection, timeoutMs: number) {
  const state = (): ServerState => ({
    name,
    config,
    status: 'ready',
    capabilities: (connection.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    tools: [],
    restartCount: 0,
    readySince: 1,
    transport: connection.facts().transport,
  });
  return {
    get: (server: string) => (server === name ? state() : undefined),
    list: () => [state()],
    request: <T>(_server: string, _request: unknown, send: (client: Client, limitMs: number) => Promise<T>) =>
      send(connection.client, timeoutMs),
  };
}

/** What a sep-2640-* scenario asks of a host: list the skills (never fetching a file); for the verify scenarios, load one. */
export async function runSkillsScenario(
  scenario: string,
  name: string,
  config: ServerConfig,
  connection: ServerConnection,
  pending: PendingRequests,
  timeoutMs: number,
  step: (text: string) => void,
): Promise<void> {
  const skills = new SkillsService({
    servers: oneServer(name, config, connection, timeoutMs),
    pending,
    lifecycle: { register: () => ({ dispose: () => undefined }) },
    onChange: () => undefined,
    warn: (text) => step(`skills: ${text}`),
  });
  const declared = connection.client.getServerCapabilities()?.extensions;
  step(
    `server declares the skills extension: ${declared !== undefined && 'io.modelcontextprotocol/skills' in declared ? 'yes' : 'no'}`,
  );
  // What the supervisor's ready event does: list the skills (entries only).
  await skills.refresh(name);
  const catalog = skills.catalog();
  for (const problem of catalog.problems) step(`skills/list failed: ${problem.problem}`);
  step(
    `skills/list: ${catalog.skills.map((skill) => `${skill.qualifiedName} (${skill.state}, ${skill.files.length} files)`).join(', ') || 'none'}`,
  );
  if (scenario === 'sep-2640-client-no-prefetch') return;
  const first = catalog.skills[0];
  if (first === undefined) throw new Error('the server listed no skill to load');
  const outcome = await skills.load(first.server, first.uri, { requestedBy: 'person' });
  if (!outcome.ok) {
    step(`load ${first.qualifiedName}: refused — ${outcome.problem}`);
    return;
  }
  step(`load ${first.qualifiedName}: verified, ${outcome.text.length} characters for the model`);
  // A skill that passed every check: the model reads its supporting files as it needs them.
  for (const file of first.files.filter((f) => f.uri !== first.uri)) {
    const read = await skills.readFile(first.server, first.uri, file.path, { requestedBy: 'person' });
    step(`read ${file.path}: ${read.ok ? 'verified' : `refused — ${read.problem}`}`);
  }
}
