/**
 * The client side of the official MCP conformance suite
 * (`@modelcontextprotocol/conformance client`), driven by scripts/conformance.mjs.
 *
 *   node --import tsx scripts/conformance-client.ts <server-url>
 *
 * The suite starts a scenario server, runs this command with the server's URL
 * as the last argument and the scenario in MCP_CONFORMANCE_SCENARIO (extra
 * data in MCP_CONFORMANCE_CONTEXT), and judges what reaches the server. Every
 * request goes through Berth's real connection code: `ServerConnection.open`
 * (Streamable HTTP with the legacy SSE fallback, era negotiation with an
 * EraCache, the handshake and tool list), `ServerConnection.callTool`, and the
 * host's ElicitationFlow for `elicitation/create`; OAuth goes through the
 * provider the app would pick (`oauthProviderFor`) from the client settings
 * the scenario hands over, as a person would enter them. The only stand-in
 * is the person: a form is submitted as Berth first shows it (the schema's
 * defaults filled in); a URL-mode request is declined; when the server asks
 * for a sign-in (at connection, or mid-session for a wider scope) Sign in is
 * pressed, at most twice, and the authorization server's redirect is
 * followed where the app would open the browser.
 *
 * Runs on the machine's Node (20), like the host; only the suite needs Node 22.
 * Exits 0 when the scenario's steps all succeeded, 1 otherwise (the suite
 * judges conformance from the traffic either way). Berth's logs go to stderr
 * (with BERTH_CONFORMANCE_TRACE=1, the protocol trace too).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerConfigSchema, type OAuthSettings } from '../shared/domain/server';
import { initialElicitationValues } from '../shared/elicitation';
import { ElicitationFlow } from '../app/elicitation/elicitation-flow';
import { PendingRequests } from '../app/pending/pending-requests';
import { EraCache } from '../app/servers/era-cache';
import { ServerConnection, type ServerConnectionOptions } from '../app/servers/server-connection';
import { ServerStartError } from '../shared/domain/server-start-error';
import { BerthOAuthProvider, NoOAuthOfferedError, SignInRequiredError } from '../app/oauth/berth-oauth-provider';
import { oauthProviderFor } from '../app/oauth/oauth-sessions';
import { signIn } from '../app/oauth/sign-in';
import { FileSecretStore } from '../app/secrets/secret-store';
import { LogCollector } from '../app/servers/test-support';
import type { Client, OAuthClientProvider } from '@modelcontextprotocol/client';
import { crossAppAccessProvider } from '../app/oauth/cross-app-access';
import { errorMessage } from '../shared/error-message';
import { runSkillsScenario } from './conformance-skills';
import { declareSkillsExtension } from '../app/skills/skills-service';

const SERVER = 'conformance';
const REQUEST_MS = 20_000;
/** Sign-ins the person would try before giving up on a server that keeps asking. */
const MAX_SIGN_INS = 2;

interface ToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

/** The pieces of MCP_CONFORMANCE_CONTEXT this adapter reads. */
interface ScenarioContext {
  toolCalls?: ToolCall[];
  /** OAuth scenarios: a client registered with the suite's authorization server, as a person would enter it in the server's settings. */
  client_id?: string;
  client_secret?: string;
  issuer?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** Workload identity: the token the platform would have put in a file. */
  valid_jwt?: string;
  /** Cross-app access: the person's sign-in at the enterprise identity provider. */
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
}

/** Cross-app access, when the suite hands over an enterprise IdP sign-in (see app/oauth/cross-app-access.ts: not in the settings yet). */
function crossAppAccessFor(context: ScenarioContext): OAuthClientProvider | undefined {
  const {
    client_id: clientId,
    client_secret: clientSecret,
    idp_client_id: idpClientId,
    idp_id_token: idToken,
    idp_issuer: idpIssuer,
  } = context;
  if (
    clientId === undefined ||
    clientSecret === undefined ||
    idpClientId === undefined ||
    idToken === undefined ||
    idpIssuer === undefined
  )
    return undefined;
  return crossAppAccessProvider({
    clientId,
    clientSecret,
    idp: {
      issuer: idpIssuer,
      clientId: idpClientId,
      ...(context.idp_token_endpoint === undefined ? {} : { tokenEndpoint: context.idp_token_endpoint }),
    },
    idToken: () => Promise.resolve(idToken),
  });
}

/**
 * The suite's authorization server accepts this URL as a client ID metadata
 * document (it fetches nothing). Berth publishes no document of its own yet,
 * so the app registers dynamically where the adapter uses this.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The OAuth client settings a person would enter for this scenario, from what the suite hands over. */
function oauthSettingsFor(scenario: string, context: ScenarioContext, stateDir: string): OAuthSettings | undefined {
  const { client_id: clientId, client_secret: clientSecret, private_key_pem: privateKey, issuer } = context;
  if (clientId === undefined) return undefined;
  if (context.valid_jwt !== undefined) {
    // Where a platform (Kubernetes, a CI runner) would have put the workload's identity token.
    const assertionFile = join(stateDir, 'workload-token.jwt');
    writeFileSync(assertionFile, context.valid_jwt, { mode: 0o600 });
    return { grant: 'jwt_bearer', clientId, assertionFile };
  }
  if (scenario.startsWith('auth/client-credentials')) {
    return privateKey === undefined
      ? { grant: 'client_credentials', clientId, ...(clientSecret === undefined ? {} : { clientSecret }) }
      : {
          grant: 'client_credentials',
          clientId,
          privateKey,
          ...(context.signing_algorithm === undefined
            ? {}
            : { signingAlgorithm: context.signing_algorithm as OAuthSettings['signingAlgorithm'] }),
        };
  }
  return {
    clientId,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(issuer === undefined ? {} : { issuer }),
  };
}

function readContext(): ScenarioContext {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined || raw === '') return {};
  return JSON.parse(raw) as ScenarioContext;
}

/** Prints one line of what the adapter did, for the suite's stdout.txt. */
function step(text: string): void {
  process.stdout.write(`${text}\n`);
}

/**
 * The person in front of Berth, reduced to a rule: a form is submitted as
 * it opens (the schema's defaults filled in, the rest empty); a link is not
 * opened; a skill it picked is allowed. Anything else waiting is declined.
 */
function autoAnswer(pending: PendingRequests): void {
  pending.onChange(({ change }) => {
    if (change.type !== 'opened') return;
    const { request } = change;
    queueMicrotask(() => {
      if (request.kind === 'skill') {
        step(`skill approval (${request.payload.stage}): ${request.payload.skill}, allowed`);
        pending.answer(request.id, { decision: 'allow' });
      } else if (request.kind === 'elicitation' && request.payload.mode === 'form') {
        step(`elicitation form: "${request.payload.message}", submitted with its initial values`);
        pending.answer(request.id, { action: 'accept', content: initialElicitationValues(request.payload.fields) });
      } else {
        step(`${request.kind} request declined`);
        pending.answer(request.id, { action: 'decline' });
      }
    });
  });
}

/** Calls one tool through Berth and reports the outcome. */
async function callTool(connection: ServerConnection, name: string, args: Record<string, unknown> = {}): Promise<void> {
  const result = await connection.callTool(name, args, { timeoutMs: REQUEST_MS });
  const text = result.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join(' ');
  step(
    `tools/call ${name}: ${result.isError === true ? 'error result' : 'ok'}${text === '' ? '' : ` — ${text.slice(0, 200)}`}`,
  );
}

/** resources/list then resources/read of the first, prompts/list then prompts/get of the first, as the resource browser and slash commands would. */
async function exerciseResourcesAndPrompts(client: Client): Promise<void> {
  const capabilities = client.getServerCapabilities();
  if (capabilities?.resources !== undefined) {
    const { resources } = await client.listResources(undefined, { timeout: REQUEST_MS });
    step(`resources/list: ${resources.length}`);
    const first = resources[0];
    if (first !== undefined) {
      await client.readResource({ uri: first.uri }, { timeout: REQUEST_MS });
      step(`resources/read ${first.uri}: ok`);
    }
  }
  if (capabilities?.prompts !== undefined) {
    const { prompts } = await client.listPrompts(undefined, { timeout: REQUEST_MS });
    step(`prompts/list: ${prompts.length}`);
    const first = prompts[0];
    if (first !== undefined) {
      await client.getPrompt({ name: first.name, arguments: {} }, { timeout: REQUEST_MS });
      step(`prompts/get ${first.name}: ok`);
    }
  }
}

/** What each scenario asks of a client once it is connected (the connection itself already listed the tools). */
async function runScenario(scenario: string, connection: ServerConnection, context: ScenarioContext): Promise<void> {
  const tools = connection.tools.map((tool) => tool.name);
  switch (scenario) {
    case 'initialize':
    case 'request-metadata':
    case 'json-schema-ref-no-deref':
      // Connecting and listing the tools is the whole scenario.
      return;
    case 'tools_call':
      return callTool(connection, 'add_numbers', { a: 5, b: 7 });
    case 'elicitation-sep1034-client-defaults':
      return callTool(connection, 'test_client_elicitation_defaults');
    case 'sse-retry':
      return callTool(connection, 'test_reconnection');
    case 'sep-2322-client-request-state':
      for (const name of [
        'test_mrtr_echo_state',
        'test_mrtr_unrelated',
        'test_mrtr_no_state',
        'test_mrtr_no_result_type',
      ]) {
        await callTool(connection, name);
      }
      return;
    case 'http-standard-headers':
      for (const name of tools) await callTool(connection, name);
      return exerciseResourcesAndPrompts(connection.client);
    case 'http-custom-headers':
      for (const call of context.toolCalls ?? []) await callTool(connection, call.name, call.arguments ?? {});
      return;
    case 'http-invalid-tool-headers':
      // Only the tools Berth kept from the list are callable.
      for (const name of tools) await callTool(connection, name, { region: 'us-west1' });
      return;
    case 'json-schema-2020-12-preservation': {
      // The schema as Berth keeps it (and would hand it to the model), echoed back for the server to compare.
      const focal = connection.tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      if (focal === undefined) throw new Error('the server listed no json_schema_2020_12_tool');
      return callTool(connection, 'json_schema_echo', { schema: focal.inputSchema });
    }
    default:
      // Signed in to a protected server, a person uses it: the first tool is called (a step-up scenario wants more scope for tools/call).
      if (scenario.startsWith('auth/') && tools[0] !== undefined) return callTool(connection, tools[0]);
      // Anything newer: Berth connects and lists, as it would for any server.
      return;
  }
}

/** The person's browser, for an authorization server that needs no person: follow its redirects to Berth's loopback listener. */
async function followToRedirect(authorizationUrl: string): Promise<void> {
  const response = await fetch(authorizationUrl);
  await response.arrayBuffer();
}

/** Whether `error` or one of its causes is a `type`. */
function hasCause(error: unknown, type: new (...args: never[]) => Error): boolean {
  const chain: unknown[] = [];
  for (let current: unknown = error; current instanceof Error && chain.length < 5; current = current.cause)
    chain.push(current);
  return chain.some((link) => link instanceof type);
}

/** A request failed because the server wants a (new) sign-in: a step-up to a wider scope, or tokens it no longer accepts. */
function needsSignIn(error: unknown): boolean {
  return hasCause(error, SignInRequiredError);
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (url === undefined || !URL.canParse(url)) {
    process.stderr.write('usage: conformance-client.ts <server-url>  (scenario in MCP_CONFORMANCE_SCENARIO)\n');
    return 2;
  }
  const context = readContext();
  const logs = new LogCollector();
  const stateDir = await mkdtemp(join(tmpdir(), 'berth-conformance-'));
  const pending = new PendingRequests();
  autoAnswer(pending);
  const flow = new ElicitationFlow({ pending, logs, openExternal: () => Promise.resolve() });
  let connection: ServerConnection | undefined;
  let eraCache: EraCache | undefined;
  try {
    const oauth = context.idp_id_token === undefined ? oauthSettingsFor(scenario, context, stateDir) : undefined;
    const config = ServerConfigSchema.parse({
      url,
      timeouts: { startupMs: REQUEST_MS, requestMs: REQUEST_MS },
      ...(oauth === undefined ? {} : { oauth }),
    });
    // Berth's own OAuth client, chosen from the settings as the app chooses it, its records in a throwaway secret store.
    const store = new FileSecretStore({
      filePath: join(stateDir, 'secrets.json'),
      warn: (text) => step(`secret store: ${text}`),
    });
    const provider =
      crossAppAccessFor(context) ?? oauthProviderFor(SERVER, config, store, { clientMetadataUrl: CLIENT_METADATA_URL });
    if (oauth !== undefined)
      step(`OAuth settings: ${oauth.grant ?? 'authorization_code'}, client ${oauth.clientId ?? 'registered by Berth'}`);
    // Kept to flush before the folder goes: a server is reported ready before its era is written.
    eraCache = new EraCache({ stateDir, logs });
    const options: ServerConnectionOptions = {
      name: SERVER,
      config,
      hostEnv: process.env,
      logs,
      eraCache,
      clientVersion: '0.1.0',
      // As the host's clientSetup, minus sampling: the adapter has no model to answer with.
      clientSetup: (server, client) => {
        client.registerCapabilities({ elicitation: { form: {}, url: {} } });
        // As the skills service's lifecycle listener does for every client of the host.
        declareSkillsExtension(client);
        client.setRequestHandler('elicitation/create', (request, ctx) =>
          flow.handle(server, request.params, { signal: ctx.mcpReq.signal }),
        );
        client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
          flow.complete(server, notification.params.elicitationId);
        });
      },
      ...(provider === undefined ? {} : { authProvider: provider }),
    };
    // What the person does when the server says it needs a sign-in: press Sign in, and again if it still asks (the
    // authorization server changed under a fresh sign-in, as in SEP-2352's migration). The suite's authorization
    // server redirects straight back, so following it is the browser.
    const signInAgain = async (why: unknown): Promise<void> => {
      if (!(provider instanceof BerthOAuthProvider)) throw why;
      step(`needs sign-in: ${errorMessage(why)}`);
      await signIn({ serverUrl: url, provider, openUrl: followToRedirect, timeoutMs: REQUEST_MS });
      step('signed in');
    };
    const openSignedIn = async (): Promise<ServerConnection> => {
      for (let round = 1; ; round++) {
        try {
          return await ServerConnection.open(options);
        } catch (error) {
          // A 401 without OAuth metadata reads "offers no OAuth sign-in … press Sign in to try its default endpoints": for a
          // 2025-03-26 server that is how its default endpoints (/register, /authorize, /token at its root) get tried.
          const wantsSignIn =
            (error instanceof ServerStartError && error.kind === 'sign-in') ||
            needsSignIn(error) ||
            hasCause(error, NoOAuthOfferedError);
          if (!wantsSignIn || round > MAX_SIGN_INS) throw error;
          await signInAgain(error);
        }
      }
    };
    connection = await openSignedIn();
    const facts = connection.facts();
    step(
      `connected over ${facts.transport}: protocol ${facts.protocolVersion ?? 'unknown'} (${facts.era ?? 'unknown'} era), tools: ${connection.tools.map((t) => t.name).join(', ') || 'none'}`,
    );
    try {
      if (scenario.startsWith('sep-2640-'))
        await runSkillsScenario(scenario, SERVER, config, connection, pending, REQUEST_MS, step);
      else await runScenario(scenario, connection, context);
    } catch (error) {
      // Mid-session the server asked for more (403 insufficient_scope): what the person does is press Sign in again
      // (the provider kept the wider scope) and Berth reconnects; the scenario's requests are then made again.
      if (!needsSignIn(error)) throw error;
      await connection.close().catch(() => undefined);
      await signInAgain(error);
      connection = await openSignedIn();
      await runScenario(scenario, connection, context);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`${scenario}: ${errorMessage(error)}\n`);
    return 1;
  } finally {
    await connection?.close().catch(() => undefined);
    const trace = process.env.BERTH_CONFORMANCE_TRACE === '1';
    for (const entry of logs.entries) {
      if (entry.source !== 'trace' || trace) process.stderr.write(`[${entry.source} ${entry.level}] ${entry.text}\n`);
    }
    await eraCache?.flush();
    await rm(stateDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

process.exitCode = await main();
