import type { z } from 'zod';
import { appMethods, appTopics } from './app';
import { appsMethods, appsTopics } from './apps';
import { backgroundMethods, backgroundTopics } from './background';
import { bundlesMethods } from './bundles';
import { chatMethods, chatTopics } from './chat';
import { configImportMethods } from './config-import';
import { consentMethods, consentTopics } from './consent';
import type { MethodSpec } from './define';
import { elicitationMethods, elicitationTopics } from './elicitation';
import { instructionsSettingsMethods, instructionsSettingsTopics } from './instructions-settings';
import { logMethods, logTopics } from './logs';
import { mcpEventsMethods, mcpEventsTopics } from './mcp-events';
import { oauthMethods } from './oauth';
import { pendingMethods, pendingTopics } from './pending';
import { promptMethods, promptTopics } from './prompts';
import { providersMethods, providersTopics } from './providers';
import { registryMethods } from './registry';
import { resourceMethods, resourceTopics } from './resources';
import { resultSettingsMethods, resultSettingsTopics } from './result-settings';
import { rootsMethods, rootsTopics } from './roots';
import { samplingMethods, samplingTopics } from './sampling';
import { sandboxMethods, sandboxTopics } from './sandbox';
import { serverMethods, serverTopics } from './servers';
import { settingsMethods, settingsTopics } from './settings';
import { skillsMethods, skillsTopics } from './skills';
import { taskSettingsMethods, taskSettingsTopics } from './task-settings';
import { tasksMethods, tasksTopics } from './tasks';
import type { Result } from '../result';

/** Every method the renderer may call on the host. */
export const contract = {
  ...appMethods,
  ...serverMethods,
  ...oauthMethods,
  ...logMethods,
  ...chatMethods,
  ...settingsMethods,
  ...providersMethods,
  ...pendingMethods,
  ...consentMethods,
  ...samplingMethods,
  ...elicitationMethods,
  ...rootsMethods,
  ...promptMethods,
  ...resourceMethods,
  ...configImportMethods,
  ...tasksMethods,
  ...taskSettingsMethods,
  ...instructionsSettingsMethods,
  ...resultSettingsMethods,
  ...appsMethods,
  ...registryMethods,
  ...bundlesMethods,
  ...skillsMethods,
  ...sandboxMethods,
  ...mcpEventsMethods,
  ...backgroundMethods,
} satisfies Record<string, MethodSpec>;

/** Every event the host pushes to the renderer. */
export const topics = {
  ...appTopics,
  ...serverTopics,
  ...logTopics,
  ...chatTopics,
  ...settingsTopics,
  ...providersTopics,
  ...pendingTopics,
  ...consentTopics,
  ...samplingTopics,
  ...elicitationTopics,
  ...rootsTopics,
  ...promptTopics,
  ...resourceTopics,
  ...tasksTopics,
  ...taskSettingsTopics,
  ...instructionsSettingsTopics,
  ...resultSettingsTopics,
  ...appsTopics,
  ...skillsTopics,
  ...sandboxTopics,
  ...mcpEventsTopics,
  ...backgroundTopics,
} satisfies Record<string, z.ZodType>;

export type Contract = typeof contract;
export type MethodName = keyof Contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
/** The input after schema parsing (defaults applied): what handlers receive. */
export type MethodParsedInput<M extends MethodName> = z.output<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

export type Topics = typeof topics;
export type TopicName = keyof Topics;
export type TopicPayload<T extends TopicName> = z.output<Topics[T]>;

export const METHOD_NAMES = Object.keys(contract) as MethodName[];
export const TOPIC_NAMES = Object.keys(topics) as TopicName[];

export function isMethodName(value: unknown): value is MethodName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(contract, value);
}

export function isTopicName(value: unknown): value is TopicName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(topics, value);
}

/** What the host implements: one async handler per method, given parsed input. */
export type Handlers = {
  [M in MethodName]: (input: MethodParsedInput<M>) => Promise<MethodOutput<M>>;
};

/**
 * The only thing the renderer knows about the host. Implemented over Electron
 * IPC (preload) and over the loopback WebSocket (browser mode).
 */
export interface BridgeTransport {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>>;
  on<T extends TopicName>(topic: T, listener: (payload: TopicPayload<T>) => void): () => void;
}

/** Wire shapes shared by both transports. */
export interface CallMessage {
  kind: 'call';
  id: number;
  method: string;
  input: unknown;
}
export interface ReplyMessage {
  kind: 'reply';
  id: number;
  result: Result<unknown>;
}
export interface EventMessage {
  kind: 'event';
  topic: TopicName;
  payload: unknown;
}

export {
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  INJECTED_TOKEN_GLOBAL,
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from './wire';
