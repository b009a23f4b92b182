import { codedFamily } from './host-wording';
import type { NestedReason } from './server-state-reasons';

/**
 * The failures of tasks, resources, prompts and completion that the person reads, as codes with their facts;
 * the renderer words them from renderer/i18n/locales/<locale>/workspace-errors.json. `kind` is the content
 * type a server sent, as it wrote it; `size` megabytes with one decimal.
 */
export type WorkspaceErrorMessages = {
  'workspace-errors.task-not-found': { id: string };
  'workspace-errors.task-cancel-not-ready': { server: string };
  'workspace-errors.resource-too-large': { uri: string; server: string; size: string; max: number };
  'workspace-errors.resource-part-empty': { server: string; uri: string };
  'workspace-errors.no-subscriptions': { server: string };
  'workspace-errors.subscription-refused': { server: string; uri: string };
  'workspace-errors.prompt-unsupported': { server: string; name: string; index: number; kind: string };
  'workspace-errors.no-completions': { server: string };
  'workspace-errors.prompt-list-failed': NestedReason;
};
export type WorkspaceErrorCode = keyof WorkspaceErrorMessages;

/** A task, resource, prompt or completion failure in English with its code (the English is what Berth always said). */
export const workspaceError = codedFamily<WorkspaceErrorMessages>({
  'workspace-errors.task-not-found': ({ id }) => `no task '${id}'`,
  'workspace-errors.task-cancel-not-ready': ({ server }) =>
    `server '${server}' is not ready yet: Berth can cancel this task once it reaches the server again`,
  'workspace-errors.resource-too-large': ({ uri, server, size, max }) =>
    `${uri} on server '${server}' is ${size} MB of binary data; Berth shows at most ${max} MB`,
  'workspace-errors.resource-part-empty': ({ server, uri }) =>
    `server '${server}' returned a part of ${uri} with neither text nor blob`,
  'workspace-errors.no-subscriptions': ({ server }) => `server '${server}' does not offer resource subscriptions`,
  'workspace-errors.subscription-refused': ({ server, uri }) =>
    `server '${server}' did not accept a subscription to ${uri}`,
  'workspace-errors.prompt-unsupported': ({ server, name, index, kind }) =>
    `server '${server}' returned prompt '${name}' with message ${index} of an unsupported kind (${kind})`,
  'workspace-errors.no-completions': ({ server }) =>
    `server '${server}' does not declare the completions capability, so it cannot suggest values`,
  // Shown beside the server's name in the slash menu: `reason` is the failure's English, its code nested.
  'workspace-errors.prompt-list-failed': ({ reason }) => `could not read the prompt list: ${reason}`,
});
