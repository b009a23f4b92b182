import { Client } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { errorMessage } from '../../shared/error-message';
import type { StartCommand } from './catalog';
import type { CallResult, Observation } from './judge';

// The baseline of `npm run test:servers`: a bare SDK v2 client on the SDK's own stdio transport, negotiating the era
// as the SDK does by default (`auto`), with no logging, consent or supervision.

/** Bounded: a server that never answers is reported, not waited for. */
const CONNECT_TIMEOUT_MS = 90_000;
const CALL_TIMEOUT_MS = 90_000;

/** Who the bare client says it is and what it declares: Berth's own, so a server has no reason to answer differently. */
export interface BareIdentity {
  clientInfo: { name: string; version: string };
  capabilities: ClientCapabilities;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One server through a bare client: connect, list every tool (all pages), make the call, close. The handlers of the
 * declared capabilities answer as Berth does with nobody there to ask: no roots, sampling refused, elicitation declined.
 */
export async function observeBare(
  start: StartCommand,
  call: { tool: string; arguments: Record<string, unknown> },
  identity: BareIdentity,
): Promise<Observation> {
  const client = new Client(identity.clientInfo, {
    capabilities: identity.capabilities,
    versionNegotiation: { mode: 'auto' },
  });
  if (identity.capabilities.roots !== undefined) client.setRequestHandler('roots/list', () => ({ roots: [] }));
  if (identity.capabilities.sampling !== undefined)
    client.setRequestHandler('sampling/createMessage', () => {
      throw new Error('sampling is not answered in this comparison');
    });
  if (identity.capabilities.elicitation !== undefined)
    client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
  const transport = new StdioClientTransport({
    command: start.command,
    args: start.args,
    env: { ...inheritedEnv(), ...start.env },
    stderr: 'ignore',
  });
  try {
    await withTimeout(client.connect(transport), CONNECT_TIMEOUT_MS, 'the handshake');
  } catch (error) {
    await client.close().catch(() => undefined);
    return { ready: false, failure: errorMessage(error), tools: [] };
  }
  try {
    const tools: Observation['tools'] = [];
    let cursor: string | undefined;
    do {
      const page = await withTimeout(
        client.listTools(cursor === undefined ? {} : { cursor }),
        CALL_TIMEOUT_MS,
        'tools/list',
      );
      tools.push(...page.tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    let result: Observation['call'];
    try {
      const answer = await client.callTool(
        { name: call.tool, arguments: call.arguments },
        { timeout: CALL_TIMEOUT_MS, maxTotalTimeout: CALL_TIMEOUT_MS },
      );
      const { content, structuredContent, isError } = answer as Partial<CallResult>;
      result = { result: { content: content ?? [], structuredContent, isError: isError === true } };
    } catch (error) {
      result = { error: errorMessage(error) };
    }
    return {
      ready: true,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      era: client.getProtocolEra(),
      tools,
      call: result,
    };
  } catch (error) {
    return { ready: false, failure: `listing its tools failed: ${errorMessage(error)}`, tools: [] };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** This process's environment as strings (the SDK's own default passes only a few variables on). */
function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
