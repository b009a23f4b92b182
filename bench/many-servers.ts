import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ECHO_SERVER } from './clients';
import { allReady, openWholeHost } from './host-app';
import { serverName } from './generators/many-tools';

/**
 * 50 servers with 2,000 tools between them (bench/fixtures/echo-server.mjs with
 * BENCH_EXTRA_TOOLS) started together: Berth (createHost → every server ready,
 * its tools listed) against 50 bare SDK v2 clients that connect and list tools.
 *
 * The bare clients use a subclass of the SDK's StdioClientTransport: on the base
 * class exactly, `auto` negotiation spawns every server twice (a throw-away probe
 * sibling, then the real one); a subclass probes in place and spawns once, as
 * Berth's own transport does. A baseline that spawned twice would flatter Berth.
 */

export const SERVERS = 50;
export const TOOLS = 2_000;

class SpawnOnceStdioTransport extends StdioClientTransport {}

function inheritedEnv(extra: Record<string, string>): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { ...env, ...extra };
}

/** Extra tools per server so that the echo tools aside, there are TOOLS in all. */
function extraToolsEach(): string {
  return String(Math.round(TOOLS / SERVERS));
}

async function bareRound(): Promise<number> {
  const started = performance.now();
  const clients: Client[] = [];
  try {
    const listed = await Promise.all(
      Array.from({ length: SERVERS }, async () => {
        const client = new Client(
          { name: 'bench-bare-v2', version: '1.0.0' },
          { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 10_000 } } },
        );
        clients.push(client);
        await client.connect(
          new SpawnOnceStdioTransport({
            command: process.execPath,
            args: [ECHO_SERVER],
            env: inheritedEnv({ BENCH_EXTRA_TOOLS: extraToolsEach() }),
            stderr: 'ignore',
          }),
        );
        return (await client.listTools()).tools.length;
      }),
    );
    const elapsed = performance.now() - started;
    const tools = listed.reduce((sum, n) => sum + n, 0);
    if (tools < TOOLS) throw new Error(`the bare clients listed ${tools} tools, expected at least ${TOOLS}`);
    return elapsed;
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

async function hostRound(): Promise<number> {
  const names = Array.from({ length: SERVERS }, (_, index) => serverName(index));
  const started = performance.now();
  const whole = await openWholeHost(
    Object.fromEntries(
      names.map((name) => [
        name,
        { command: process.execPath, args: [ECHO_SERVER], env: { BENCH_EXTRA_TOOLS: extraToolsEach() } },
      ]),
    ),
  );
  try {
    await allReady(whole.host, names);
    const elapsed = performance.now() - started;
    const listed = await whole.host.dispatch('servers.list', {});
    if (!listed.ok) throw new Error(`servers.list failed: ${listed.message}`);
    const tools = (listed.value as Array<{ tools: unknown[] }>).reduce((sum, server) => sum + server.tools.length, 0);
    if (tools < TOOLS) throw new Error(`Berth listed ${tools} tools, expected at least ${TOOLS}`);
    return elapsed;
  } finally {
    await whole.dispose();
  }
}

/** One round of each, in alternating order; the ratio is Berth's time over the bare clients'. */
export async function manyServersRound(round: number): Promise<Record<string, number>> {
  const hostFirst = round % 2 === 1;
  const host = hostFirst ? await hostRound() : Number.NaN;
  const bare = await bareRound();
  const hostMs = hostFirst ? host : await hostRound();
  return { bareMs: bare, hostMs, ratio: hostMs / bare };
}
