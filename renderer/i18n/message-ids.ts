// The message ids, inferred from the English catalog: a missing or misspelt id fails typecheck.
// One line per catalog file; a feature converting its strings fills its own file and never edits this one.
import type apps from './locales/en/apps.json';
import type bundles from './locales/en/bundles.json';
import type chat from './locales/en/chat.json';
import type completion from './locales/en/completion.json';
import type config from './locales/en/config.json';
import type configImport from './locales/en/config-import.json';
import type discover from './locales/en/discover.json';
import type events from './locales/en/events.json';
import type launchReview from './locales/en/launch-review.json';
import type logs from './locales/en/logs.json';
import type pending from './locales/en/pending.json';
import type resources from './locales/en/resources.json';
import type roots from './locales/en/roots.json';
import type sandbox from './locales/en/sandbox.json';
import type servers from './locales/en/servers.json';
import type settings from './locales/en/settings.json';
import type shell from './locales/en/shell.json';
import type skills from './locales/en/skills.json';
import type tasks from './locales/en/tasks.json';
import type transport from './locales/en/transport.json';
import type ui from './locales/en/ui.json';
import type serverStart from './locales/en/server-start.json';
import type chatError from './locales/en/chat-error.json';
import type chatNotice from './locales/en/chat-notice.json';
import type withdrawal from './locales/en/withdrawal.json';
import type toolOutcome from './locales/en/tool-outcome.json';
import type serverErrors from './locales/en/server-errors.json';
import type rootErrors from './locales/en/root-errors.json';
import type serverState from './locales/en/server-state.json';
import type conversationErrors from './locales/en/conversation-errors.json';
import type providerErrors from './locales/en/provider-errors.json';
import type configErrors from './locales/en/config-errors.json';
import type credentialErrors from './locales/en/credential-errors.json';
import type settingsErrors from './locales/en/settings-errors.json';
import type registryErrors from './locales/en/registry-errors.json';
import type bundleErrors from './locales/en/bundle-errors.json';
import type sandboxErrors from './locales/en/sandbox-errors.json';
import type appsErrors from './locales/en/apps-errors.json';
import type consentErrors from './locales/en/consent-errors.json';
import type workspaceErrors from './locales/en/workspace-errors.json';
import type samplingWords from './locales/en/sampling-words.json';
import type taskErrors from './locales/en/task-errors.json';
import type bridgeErrors from './locales/en/bridge-errors.json';
import type pendingErrors from './locales/en/pending-errors.json';
import type skillsErrors from './locales/en/skills-errors.json';
import type configImportErrors from './locales/en/config-import-errors.json';
import type configProblems from './locales/en/config-problems.json';
import type samplingChoice from './locales/en/sampling-choice.json';
import type appsSandbox from './locales/en/apps-sandbox.json';

/** Every id of the English catalog (the source every other locale translates). */
export type MessageId =
  | keyof typeof apps
  | keyof typeof bundles
  | keyof typeof chat
  | keyof typeof completion
  | keyof typeof config
  | keyof typeof configImport
  | keyof typeof discover
  | keyof typeof events
  | keyof typeof launchReview
  | keyof typeof logs
  | keyof typeof pending
  | keyof typeof resources
  | keyof typeof roots
  | keyof typeof sandbox
  | keyof typeof servers
  | keyof typeof settings
  | keyof typeof shell
  | keyof typeof skills
  | keyof typeof tasks
  | keyof typeof transport
  | keyof typeof ui
  | keyof typeof serverStart
  | keyof typeof chatError
  | keyof typeof chatNotice
  | keyof typeof withdrawal
  | keyof typeof toolOutcome
  | keyof typeof serverErrors
  | keyof typeof rootErrors
  | keyof typeof serverState
  | keyof typeof conversationErrors
  | keyof typeof providerErrors
  | keyof typeof configErrors
  | keyof typeof credentialErrors
  | keyof typeof settingsErrors
  | keyof typeof registryErrors
  | keyof typeof bundleErrors
  | keyof typeof sandboxErrors
  | keyof typeof appsErrors
  | keyof typeof consentErrors
  | keyof typeof workspaceErrors
  | keyof typeof samplingWords
  | keyof typeof taskErrors
  | keyof typeof bridgeErrors
  | keyof typeof pendingErrors
  | keyof typeof skillsErrors
  | keyof typeof bridgeErrors
  | keyof typeof configImportErrors
  | keyof typeof configProblems
  | keyof typeof samplingChoice
  | keyof typeof appsSandbox;

/** The catalog files, by the id prefix each owns (checked by catalog.test.ts against the folder). */
export const CATALOG_FILES = [
  'apps',
  'bundles',
  'chat',
  'completion',
  'config',
  'config-import',
  'discover',
  'events',
  'launch-review',
  'logs',
  'pending',
  'resources',
  'roots',
  'sandbox',
  'servers',
  'settings',
  'shell',
  'skills',
  'tasks',
  'transport',
  'ui',
  'server-start',
  'chat-error',
  'chat-notice',
  'withdrawal',
  'tool-outcome',
  'server-errors',
  'root-errors',
  'server-state',
  'conversation-errors',
  'provider-errors',
  'config-errors',
  'credential-errors',
  'settings-errors',
  'registry-errors',
  'bundle-errors',
  'sandbox-errors',
  'apps-errors',
  'consent-errors',
  'workspace-errors',
  'sampling-words',
  'task-errors',
  'bridge-errors',
  'pending-errors',
  'skills-errors',
  'config-import-errors',
  'config-problems',
  'sampling-choice',
  'apps-sandbox',
] as const;
