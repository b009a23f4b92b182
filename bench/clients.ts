import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { errorMessage } from '../shared/error-message';
import type { SeriesPlan, SeriesResult } from './tool-calls';

/** The fixture every benchmark talks to. */
export const ECHO_SERVER = fileURLToPath(new URL('./fixtures/echo-server.mjs', import.meta.url));
/** Same probe timeout as app/servers/server-connection.ts, so both sides negotiate alike. */
const PROBE_TIMEOUT_MS = 10_000;

/** What a benchmark does with a connected baseline client. */
export interface BenchClient {
  label: string;
  callEcho(text: string): Promise<unknown>;
  getEchoPrompt(text: string): Promise<unknown>;
  /** Runs a whole series itself (a client in another process); the calls above are then not used. */
  series?(plan: SeriesPlan): Promise<SeriesResult>;
  close(): Promise<void>;
}

/**
 * A bare SDK v2 client on the SDK's own stdio transport, negotiating the way
 * Berth does (`versionNegotiation: auto` with the same probe timeout), with
 * no logging, tracing or consent.
 */
export async function connectBareV2(env: Record<string, string> = {}): Promise<BenchClient> {
  const client = new Client(
    { name: 'bench-bare-v2', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } } },
  );
  // stderr ignored: a bare client shows nothing, which is exactly the baseline.
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [ECHO_SERVER],
      env: { ...inheritedEnv(), ...env },
      stderr: 'ignore',
    }),
  );
  return {
    label: 'bare SDK v2 client',
    callEcho: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    getEchoPrompt: (text) => client.getPrompt({ name: 'echo', arguments: { text } }),
    close: () => client.close(),
  };
}

/**
 * The v1 `@modelcontextprotocol/sdk` client, for reference only. It is not a
 * direct dependency (it arrives with the reference servers), so it is loaded
 * lazily and its absence is reported, not fatal.
 */
export async function connectBareV1(): Promise<BenchClient | string> {
  let clientModule: { Client: new (info: object, options: object) => V1Client };
  let stdioModule: { StdioClientTransport: new (params: object) => unknown };
  try {
    // Specifiers in variables: tsc must not require the optional package's types.
    const clientPath = '@modelcontextprotocol/sdk/client/index.js';
    const stdioPath = '@modelcontextprotocol/sdk/client/stdio.js';
    clientModule = (await import(clientPath)) as typeof clientModule;
    stdioModule = (await import(stdioPath)) as typeof stdioModule;
  } catch (error) {
    return `@modelcontextprotocol/sdk is not installed (${errorMessage(error)})`;
  }
  const client = new clientModule.Client({ name: 'bench-bare-v1', version: '1.0.0' }, { capabilities: {} });
  await client.connect(
    new stdioModule.StdioClientTransport({
      command: process.execPath,
      args: [ECHO_SERVER],
      env: inheritedEnv(),
      stderr: 'ignore',
    }),
  );
  return {
    label: 'bare SDK v1 client (reference)',
    callEcho: (text) => client.callTool({ name: 'echo', arguments: { text } }),
    getEchoPrompt: (text) => client.getPrompt({ name: 'echo', arguments: { text } }),
    close: () => client.close(),
  };
}

interface V1Client {
  connect(transport: unknown): Promise<void>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<unknown>;
  close(): Promise<void>;
}

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
