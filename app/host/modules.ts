import { activityModule } from './capabilities/activity';
import { appsModule } from './capabilities/apps';
import { bridgeModule } from './capabilities/bridge';
import { chatModule } from './capabilities/chat';
import { configModule } from './capabilities/config';
import { consentModule } from './capabilities/consent';
import { launchModule } from './capabilities/launch';
import { logsModule } from './capabilities/logs';
import { mcpEventsModule } from './capabilities/mcp-events';
import { oauthModule } from './capabilities/oauth';
import { providersModule } from './capabilities/providers';
import { rootsModule } from './capabilities/roots';
import { sandboxModule } from './capabilities/sandbox';
import { serverEventsModule } from './capabilities/server-events';
import { serversModule } from './capabilities/servers';
import { settingsModule } from './capabilities/settings';
import { skillsModule } from './capabilities/skills';
import { sourcesModule } from './capabilities/sources';
import { startModule } from './capabilities/start';
import { tasksModule } from './capabilities/tasks';
import { workspaceModule } from './capabilities/workspace';
import type { HostContext } from './host-context';
import type { HostModule } from './host-modules';

/**
 * Every capability of the host, in the order it opens (phase, then this list;
 * host-modules.ts). Shutdown runs in reverse: first every module stops taking
 * work, then each closes. The order within a phase is also the order in which
 * each registers with the server lifecycle, so a server's events reach the
 * services in this order.
 */
export const HOST_MODULES: readonly HostModule<HostContext>[] = [
  // foundation
  logsModule, // redacted host-wide log; Berth's files made private
  settingsModule, // secret store, settings
  providersModule, // Anthropic and OpenAI-compatible providers
  launchModule, // login-shell environment, server secrets
  // services: each keeps something per server and joins the lifecycle
  sandboxModule, // connection wrapper (order 10), launch wrapper, log watcher
  consentModule, // pending requests, consent, sampling review, elicitation
  oauthModule, // sign-in of HTTP servers
  tasksModule, // tool calls as tasks (connection wrapper, order 20), tasks servers ask for
  // servers
  serversModule, // the supervisor over the wrappers registered above
  // features
  workspaceModule, // prompts, completions, resources
  appsModule, // MCP Apps
  skillsModule, // MCP skills and their host tools
  mcpEventsModule, // MCP Events: subscriptions, the Inbox, events that start work
  serverEventsModule, // the renderer hears server states after the services above
  configModule, // config.json and the server sync; loaded here
  // loaded
  rootsModule, // roots per server
  chatModule, // conversations, host tools
  // ready
  sourcesModule, // config import, registry, bundles
  activityModule, // what runs now (the tray, background mode)
  bridgeModule, // the contract's router
  startModule, // watch the config, start the configured servers
];
