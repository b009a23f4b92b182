import type { ChatErrorCode } from '../../../shared/domain/chat-error';
import type { HostMessage } from '../../../shared/domain/host-message';

/**
 * The way out of a failed turn, as a button beside its error: the key (Settings), the model (the picker). Context
 * full (Compact and retry) and the errors worth trying again (Retry) have their buttons under the reply already.
 */
export type ChatErrorAction = 'open-settings' | 'pick-model';

/** Every chat-error code with a way out other than Retry; the one place the renderer maps a failure to its action. */
const ACTIONS: Partial<Record<ChatErrorCode, ChatErrorAction>> = {
  'chat-error.anthropic-key-first': 'open-settings',
  'chat-error.anthropic-no-key': 'open-settings',
  'chat-error.api-key-rejected': 'open-settings',
  'chat-error.api-key-not-allowed': 'open-settings',
  'chat-error.provider-key-missing': 'open-settings',
  'chat-error.provider-key-rejected': 'open-settings',
  'chat-error.provider-key-not-allowed': 'open-settings',
  'chat-error.provider-needs-key': 'open-settings',
  'chat-error.provider-removed': 'pick-model',
  'chat-error.api-model-not-found': 'pick-model',
  'chat-error.provider-model-not-found': 'pick-model',
  'chat-error.provider-model-not-found-detail': 'pick-model',
  'chat-error.model-no-tools': 'pick-model',
  'chat-error.model-no-images': 'pick-model',
  'chat-error.model-no-images-detail': 'pick-model',
};

export function chatErrorAction(message: HostMessage | undefined): ChatErrorAction | undefined {
  return message === undefined ? undefined : ACTIONS[message.code as ChatErrorCode];
}
