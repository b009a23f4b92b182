import type { HostMessage } from '../../shared/domain/host-message';
import type { ConversationErrorCode } from '../../shared/domain/conversation-errors';
import type { ProviderErrorCode } from '../../shared/domain/provider-errors';
import type { RootErrorCode } from '../../shared/domain/root-errors';
import type { ServerErrorCode } from '../../shared/domain/server-errors';
import type { ServerStartCode } from '../../shared/domain/server-start-error';
import type { ChatErrorCode } from '../../shared/domain/chat-error';
import type { ChatNoticeCode } from '../../shared/domain/chat-notice';
import type { WithdrawalCode } from '../../shared/domain/withdrawal';
import type { ToolOutcomeCode } from '../../shared/domain/tool-outcome';
import type { ServerStateCode } from '../../shared/domain/server-state-reasons';
import type { ConfigErrorCode } from '../../shared/domain/config-errors';
import type { CredentialErrorCode } from '../../shared/domain/credential-errors';
import type { SettingsErrorCode } from '../../shared/domain/settings-errors';
import type { RegistryErrorCode } from '../../shared/domain/registry-errors';
import type { BundleErrorCode } from '../../shared/domain/bundle-errors';
import type { SandboxErrorCode } from '../../shared/domain/sandbox-errors';
import type { AppsErrorCode } from '../../shared/domain/apps-errors';
import type { ConsentErrorCode } from '../../shared/domain/consent-errors';
import type { WorkspaceErrorCode } from '../../shared/domain/workspace-errors';
import type { SamplingWordsCode } from '../../shared/domain/sampling-words';
import type { TaskErrorCode } from '../../shared/domain/task-errors';
import type { BridgeErrorCode } from '../../shared/domain/bridge-errors';
import { failureText, hostText, known, messageValues } from './host-text';
import type { PendingErrorCode } from '../../shared/domain/pending-errors';
import type { SkillsErrorCode } from '../../shared/domain/skills-errors';
import type { ConfigImportErrorCode } from '../../shared/domain/config-import-errors';
import type { ConfigProblemCode } from '../../shared/domain/config-problems';
import type { MessageId } from './message-ids';
import { T } from './t';

export { failureText, hostText };

// Every code a family of host messages can carry has its words in the catalog: a code added on the
// host without them fails typecheck here.
type Worded<C extends string> = [C] extends [MessageId] ? true : false;
const SERVER_START_WORDED: Worded<ServerStartCode> = true;
const CHAT_ERROR_WORDED: Worded<ChatErrorCode> = true;
const CHAT_NOTICE_WORDED: Worded<ChatNoticeCode> = true;
const WITHDRAWAL_WORDED: Worded<WithdrawalCode> = true;
const TOOL_OUTCOME_WORDED: Worded<ToolOutcomeCode> = true;
const SERVER_ERRORS_WORDED: Worded<ServerErrorCode> = true;
const ROOT_ERRORS_WORDED: Worded<RootErrorCode> = true;
const SERVER_STATE_WORDED: Worded<ServerStateCode> = true;
const CONVERSATION_ERRORS_WORDED: Worded<ConversationErrorCode> = true;
const PROVIDER_ERRORS_WORDED: Worded<ProviderErrorCode> = true;
const CONFIG_ERRORS_WORDED: Worded<ConfigErrorCode> = true;
const CREDENTIAL_ERRORS_WORDED: Worded<CredentialErrorCode> = true;
const SETTINGS_ERRORS_WORDED: Worded<SettingsErrorCode> = true;
const REGISTRY_ERRORS_WORDED: Worded<RegistryErrorCode> = true;
const BUNDLE_ERRORS_WORDED: Worded<BundleErrorCode> = true;
const SANDBOX_ERRORS_WORDED: Worded<SandboxErrorCode> = true;
const APPS_ERRORS_WORDED: Worded<AppsErrorCode> = true;
const CONSENT_ERRORS_WORDED: Worded<ConsentErrorCode> = true;
const WORKSPACE_ERRORS_WORDED: Worded<WorkspaceErrorCode> = true;
const SAMPLING_WORDS_WORDED: Worded<SamplingWordsCode> = true;
const TASK_ERRORS_WORDED: Worded<TaskErrorCode> = true;
const BRIDGE_ERRORS_WORDED: Worded<BridgeErrorCode> = true;
const PENDING_ERRORS_WORDED: Worded<PendingErrorCode> = true;
const SKILLS_ERRORS_WORDED: Worded<SkillsErrorCode> = true;
const CONFIG_IMPORT_ERRORS_WORDED: Worded<ConfigImportErrorCode> = true;
const CONFIG_PROBLEMS_WORDED: Worded<ConfigProblemCode> = true;
void [
  SERVER_START_WORDED,
  CHAT_ERROR_WORDED,
  CHAT_NOTICE_WORDED,
  WITHDRAWAL_WORDED,
  TOOL_OUTCOME_WORDED,
  SERVER_ERRORS_WORDED,
  ROOT_ERRORS_WORDED,
  SERVER_STATE_WORDED,
  CONVERSATION_ERRORS_WORDED,
  PROVIDER_ERRORS_WORDED,
  CONFIG_ERRORS_WORDED,
  CREDENTIAL_ERRORS_WORDED,
  SETTINGS_ERRORS_WORDED,
  REGISTRY_ERRORS_WORDED,
  BUNDLE_ERRORS_WORDED,
  SANDBOX_ERRORS_WORDED,
  APPS_ERRORS_WORDED,
  CONSENT_ERRORS_WORDED,
  WORKSPACE_ERRORS_WORDED,
  SAMPLING_WORDS_WORDED,
  TASK_ERRORS_WORDED,
  BRIDGE_ERRORS_WORDED,
  PENDING_ERRORS_WORDED,
  SKILLS_ERRORS_WORDED,
  CONFIG_IMPORT_ERRORS_WORDED,
  CONFIG_PROBLEMS_WORDED,
];

/**
 * A host message in the person's language, with the catalog's markup (`<code>` around a command);
 * the host's English when the catalog has no words for the code. Render it in a component that
 * uses useT() so a language switch re-renders it.
 */
export function HostMessageText({ message, fallback }: { message: HostMessage | undefined; fallback: string }) {
  if (!known(message)) return <>{fallback}</>;
  return (
    <T
      id={message.code}
      {...(message.params ? { values: messageValues(message) } : {})}
      components={{ code: <code /> }}
    />
  );
}
