import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatError, type ChatErrorMessages } from '../../shared/domain/chat-error';
import { chatNotice, type ChatNoticeMessages } from '../../shared/domain/chat-notice';
import type { CodedText, Worded } from '../../shared/domain/host-wording';
import { withdrawal, type WithdrawalMessages } from '../../shared/domain/withdrawal';
import { toolOutcome, type ToolOutcomeMessages } from '../../shared/domain/tool-outcome';
import { configError, type ConfigErrorMessages } from '../../shared/domain/config-errors';
import { credentialError, type CredentialErrorMessages } from '../../shared/domain/credential-errors';
import { providerError, type ProviderErrorMessages } from '../../shared/domain/provider-errors';
import { settingsError, type SettingsErrorMessages } from '../../shared/domain/settings-errors';
import { registryError, type RegistryErrorMessages } from '../../shared/domain/registry-errors';
import { bundleError, type BundleErrorMessages } from '../../shared/domain/bundle-errors';
import { sandboxError, type SandboxErrorMessages } from '../../shared/domain/sandbox-errors';
import { appsError, type AppsErrorMessages } from '../../shared/domain/apps-errors';
import { consentError, type ConsentErrorMessages } from '../../shared/domain/consent-errors';
import { workspaceError, type WorkspaceErrorMessages } from '../../shared/domain/workspace-errors';
import { samplingWords, type SamplingWordsMessages } from '../../shared/domain/sampling-words';
import { conversationError, type ConversationErrorMessages } from '../../shared/domain/conversation-errors';
import { taskError, type TaskErrorMessages } from '../../shared/domain/task-errors';
import { rootError, type RootErrorMessages } from '../../shared/domain/root-errors';
import { startWords, type StartFailureMessages } from '../../shared/domain/server-start-error';
import { serverError, type ServerErrorMessages } from '../../shared/domain/server-errors';
import {
  serverStateReason,
  type ServerStateCode,
  type ServerStateMessages,
} from '../../shared/domain/server-state-reasons';
import { bridgeError, type BridgeErrorMessages } from '../../shared/domain/bridge-errors';
import { pendingError, type PendingErrorMessages } from '../../shared/domain/pending-errors';
import { skillsError, type SkillsErrorMessages } from '../../shared/domain/skills-errors';
import { configImportError, type ConfigImportErrorMessages } from '../../shared/domain/config-import-errors';
import { configProblem, SYNTAX_WORDS, type ConfigProblemMessages } from '../../shared/domain/config-problems';
import { hostText } from './host-message';
import { activateLocale, type UiLocale } from './i18n';

// The English catalog says what the host's English says, code by code, for the chat's families: a sentence changed
// on one side only (a fact added, a hint dropped) fails here. Typed per family, so a new code needs its sample.
// Quotes and markup differ on purpose (the catalog writes “typographic” quotes and <code>), and are left out.

const url = 'http://127.0.0.1:8080';
const d = 'the provider said so';
const CHAT_ERRORS: { [C in keyof ChatErrorMessages]: ChatErrorMessages[C] } = {
  'chat-error.anthropic-no-key': {},
  'chat-error.anthropic-key-first': {},
  'chat-error.api-timed-out': { url },
  'chat-error.api-refused': { url },
  'chat-error.api-host-not-found': { url },
  'chat-error.api-unreachable': { url },
  'chat-error.api-unreachable-detail': { url, detail: d },
  'chat-error.api-key-rejected': { status: 401, detail: d },
  'chat-error.api-key-not-allowed': { status: 403, detail: d },
  'chat-error.api-rate-limited': { status: 429, detail: d, retryAfter: 17 },
  'chat-error.api-rate-limited-mid-reply': { detail: d },
  'chat-error.api-overloaded': { status: 529, detail: d, retryAfter: 0 },
  'chat-error.api-overloaded-mid-reply': { detail: d },
  'chat-error.api-model-not-found': { status: 404, detail: d, model: 'claude-x' },
  'chat-error.api-rejected': { status: 400, detail: d },
  'chat-error.api-error-mid-reply': { type: 'api_error', detail: d },
  'chat-error.api-internal': { status: 500, detail: d },
  'chat-error.api-status': { status: 418, detail: d },
  'chat-error.api-reply-unreadable': { url, detail: d },
  'chat-error.connection-lost-mid-reply': { url },
  'chat-error.model-call-failed': { detail: d },
  'chat-error.api-no-context-management': { detail: d },
  'chat-error.provider-key-rejected': { provider: 'Ollama', status: 401, detail: d },
  'chat-error.provider-needs-key': { provider: 'Ollama', status: 401, detail: d },
  'chat-error.provider-key-not-allowed': { provider: 'Ollama', status: 403, detail: d },
  'chat-error.provider-rate-limited': { provider: 'Ollama', status: 429, detail: d, retryAfter: 20 },
  'chat-error.provider-overloaded': { provider: 'Ollama', status: 503, detail: d, retryAfter: 0 },
  'chat-error.provider-internal': { provider: 'Ollama', status: 500, detail: d },
  'chat-error.provider-model-not-found': { provider: 'Ollama', model: 'qwen3' },
  'chat-error.provider-model-not-found-detail': { provider: 'Ollama', model: 'qwen3', detail: `404: ${d}` },
  'chat-error.provider-not-openai': { url },
  'chat-error.provider-not-found': { provider: 'Ollama', detail: d },
  'chat-error.provider-rejected': { provider: 'Ollama', status: 400, detail: d },
  'chat-error.provider-status': { provider: 'Ollama', status: 302, detail: d },
  'chat-error.provider-error-mid-reply': { provider: 'Ollama', detail: d },
  'chat-error.provider-timed-out': { url },
  'chat-error.provider-timed-out-after': { url, seconds: 2.5 },
  'chat-error.provider-silent': { provider: 'Ollama' },
  'chat-error.provider-refused': { host: '127.0.0.1', port: '11434', provider: 'Ollama' },
  'chat-error.provider-refused-unnamed': { host: '127.0.0.1', port: '8080' },
  'chat-error.provider-host-not-found': { host: 'llm.example' },
  'chat-error.provider-connection-closed': { host: '127.0.0.1', port: '8080' },
  'chat-error.provider-insecure': { host: 'llm.example', detail: d },
  'chat-error.provider-unreachable': { url },
  'chat-error.provider-unreachable-detail': { url, detail: d },
  'chat-error.provider-reply-unreadable': { url, detail: d },
  'chat-error.provider-removed': { model: 'lab:qwen3', provider: 'lab' },
  'chat-error.provider-key-missing': { provider: 'OpenRouter' },
  'chat-error.model-no-tools': { model: 'gemma', detail: d },
  'chat-error.model-no-images': { model: 'gemma' },
  'chat-error.model-no-images-detail': { model: 'gemma', detail: d },
  'chat-error.model-no-images-sampling': { model: 'gemma' },
  'chat-error.too-many-rounds': { rounds: 25 },
  'chat-error.context-full-ask': { model: 'Claude', estimate: 181234, window: 200000 },
  'chat-error.context-message-too-big': { model: 'Claude', estimate: 181234 },
  'chat-error.context-message-too-big-window': { model: 'Claude', estimate: 181234, window: 200000 },
  'chat-error.context-still-full': { model: 'Claude', after: 181234, window: 200000, cut: 'drop' },
  'chat-error.context-refused': { detail: d },
};
const CHAT_NOTICES: { [C in keyof ChatNoticeMessages]: ChatNoticeMessages[C] } = {
  'chat-notice.no-tools': { model: 'gemma' },
  'chat-notice.no-images': { model: 'gemma', count: 3 },
  'chat-notice.api-compacted': { before: 181234, messages: 12, model: 'Claude', after: 40210 },
  'chat-notice.compacted': { before: 181234, messages: 12, model: 'Claude', after: 40210 },
  'chat-notice.dropped': { before: 181234, messages: 12, model: 'Claude', after: 40210 },
  'chat-notice.own-compaction': { detail: d },
  'chat-notice.too-many-tools': { count: 64, countAt: 40 },
  'chat-notice.tools-too-large': { tokens: 52000, charsPerToken: 4, percent: 26, window: 200000, sharePercent: 25 },
  'chat-notice.tools-too-many-and-large': {
    count: 64,
    countAt: 40,
    tokens: 52000,
    charsPerToken: 4,
    percent: 26,
    window: 200000,
    sharePercent: 25,
  },
};
const WITHDRAWALS: { [C in keyof WithdrawalMessages]: WithdrawalMessages[C] } = {
  'withdrawal.berth-quit': {},
  'withdrawal.window-closed': {},
  'withdrawal.no-window': {},
  'withdrawal.server-disconnected': { server: 'everything' },
  'withdrawal.server-disconnected-because': { server: 'everything', detail: d },
  'withdrawal.server-removed': { server: 'everything' },
  'withdrawal.server-not-configured': { server: 'everything' },
  'withdrawal.too-many-waiting': { server: 'everything', count: 20 },
  'withdrawal.cancelled': {},
  'withdrawal.call-ended': {},
  'withdrawal.call-stopped': {},
  'withdrawal.call-failed': { detail: d },
  'withdrawal.call-finished': {},
};

const TOOL_OUTCOMES: { [C in keyof ToolOutcomeMessages]: ToolOutcomeMessages[C] } = {
  'tool-outcome.no-such-tool': { name: 'gone__tool' },
  'tool-outcome.could-not-ask': { detail: d },
};

const CONFIG_ERRORS: { [C in keyof ConfigErrorMessages]: ConfigErrorMessages[C] } = {
  'config-errors.file-has-errors': { file: '/home/a/.berth/config.json', more: 0, reason: 'missing comma' },
  'config-errors.entry-has-errors': { name: 'everything' },
  'config-errors.duplicate-keys': { name: 'everything' },
  'config-errors.read-failed': { file: '/home/a/.berth/config.json', detail: 'EISDIR' },
  'config-errors.write-failed': { file: '/home/a/.berth/config.json', detail: 'EACCES' },
  'config-errors.no-oauth-entry': { name: 'remote' },
  'config-errors.issuer-set': { name: 'remote', issuer: 'https://auth.example' },
  'config-errors.import-folder-relative': { folder: 'project' },
  'config-errors.import-needs-project': { id: 'vscode-workspace' },
  'config-errors.import-missing': { label: 'Claude Desktop', path: '/home/a/claude.json' },
  'config-errors.import-not-file': { path: '/home/a/claude.json' },
  'config-errors.import-too-large': { path: '/home/a/claude.json', bytes: 9000000 },
  'config-errors.import-unreadable': { path: '/home/a/claude.json', detail: 'EACCES' },
  'config-errors.import-no-sandbox': { reason: 'bubblewrap is missing' },
  'config-errors.import-no-sandbox-install': { reason: 'bubblewrap is missing', install: 'apt-get install bubblewrap' },
  'config-errors.edit-invalid': { more: 2, reason: 'Expected a value' },
  'config-errors.file-has-errors-at': {
    file: '/home/a/.berth/config.json',
    line: 3,
    column: 1,
    more: 1,
    reason: configProblem('config-problems.syntax', { error: 'CommaExpected' }).text,
  },
  'config-errors.edit-invalid-at': {
    line: 3,
    column: 1,
    more: 0,
    reason: configProblem('config-problems.trailing-comma', { found: ']' }).text,
  },
  'config-errors.edit-invalid-unknown': {},
};

const CREDENTIAL_ERRORS: { [C in keyof CredentialErrorMessages]: CredentialErrorMessages[C] } = {
  'credential-errors.local-server': { server: 'everything' },
  'credential-errors.sign-in-failed': { step: 'registration', reason: 'invalid_client_metadata (400)' },
  'credential-errors.own-authorization': { server: 'remote' },
  'credential-errors.no-person-needed': { server: 'remote', grant: 'jwt_bearer' },
  'credential-errors.no-client-id': { server: 'remote', grant: 'client_credentials' },
  'credential-errors.no-token-file': { server: 'remote' },
  'credential-errors.store-failed': { server: 'remote', detail: 'the keychain is locked' },
  'credential-errors.mask-without-secret': { section: 'headers', key: 'Authorization', mask: '••••••' },
  'credential-errors.stored-secret-missing': { section: 'oauth', key: 'privateKey' },
};

const SETTINGS_ERRORS: { [C in keyof SettingsErrorMessages]: SettingsErrorMessages[C] } = {
  'settings-errors.not-an-api-key': {},
  'settings-errors.store-key-failed': { detail: 'the keychain is locked' },
  'settings-errors.remove-key-failed': { detail: 'the keychain is locked' },
  'settings-errors.unknown-model': {
    model: 'gpt-x',
    models: 'claude-a, lab:qwen3',
    file: '/home/a/.berth/settings.json',
  },
  'settings-errors.result-limit-range': { min: 500, max: 500000 },
  'settings-errors.save-blocked': { file: '/home/a/.berth/settings.json', detail: 'it is invalid' },
  'settings-errors.save-failed': { file: '/home/a/.berth/settings.json', detail: 'EACCES' },
  'settings-errors.provider-not-found': { id: 'lab', file: '/home/a/.berth/settings.json' },
  'settings-errors.provider-id-taken': { id: 'lab' },
  'settings-errors.provider-store-key-failed': { id: 'lab', detail: 'the keychain is locked' },
  'settings-errors.provider-remove-key-failed': { id: 'lab', detail: 'the keychain is locked' },
  'settings-errors.no-anthropic-models': {},
  'settings-errors.anthropic-only-models': { field: 'label' },
  'settings-errors.provider-id-form': {},
  'settings-errors.provider-id-built-in': { id: 'anthropic' },
  'settings-errors.provider-name-missing': {},
  'settings-errors.base-url-not-http': {},
  'settings-errors.base-url-has-credentials': {},
  'settings-errors.model-id-missing': {},
  'settings-errors.model-ids-twice': {},
  'settings-errors.anthropic-model-ids-twice': {},
  'settings-errors.tokens-not-number': { field: 'maxTokens' },
  'settings-errors.tokens-not-whole': { field: 'sessionBudget' },
  'settings-errors.tokens-at-least-one': { field: 'maxTokens' },
  'settings-errors.tokens-at-most': { field: 'sessionBudget', max: 10_000_000 },
};

const REGISTRY_ERRORS: { [C in keyof RegistryErrorMessages]: RegistryErrorMessages[C] } = {
  'registry-errors.review-gone': {},
  'registry-errors.not-from-registry': { server: 'time' },
  'registry-errors.update-needs-more': { version: '2.0.0', name: 'io.github.x/weather', detail: d },
  'registry-errors.update-asks-more': { version: '2.0.0', name: 'io.github.x/weather', detail: d },
  'registry-errors.no-such-entry': { detail: d },
  'registry-errors.unreachable': { detail: d },
  'registry-errors.package-source-image': { host: 'quay.io' },
  'registry-errors.package-source-base': {
    base: 'https://npm.example',
    registryType: 'npm',
    identifier: '@x/weather',
  },
  'registry-errors.name-taken': { name: 'weather' },
  'registry-errors.deleted': {},
  'registry-errors.confirm-source': { url: 'https://npm.example' },
  'registry-errors.sandbox-misfit': { reason: 'docker runs its containers through a daemon the sandbox cannot reach' },
};

const n = 'server/index.js';
const BUNDLE_ERRORS: { [C in keyof BundleErrorMessages]: BundleErrorMessages[C] } = {
  'bundle-errors.full-path': { path: 'greeter.mcpb' },
  'bundle-errors.cannot-run': { detail: d },
  'bundle-errors.already-installed': { bundle: 'berth-greeter', version: '1.0.0', server: 'greeter' },
  'bundle-errors.not-open': {},
  'bundle-errors.upload-gone': {},
  'bundle-errors.cannot-open': { path: '/tmp/a.mcpb', detail: d },
  'bundle-errors.not-a-file': { path: '/tmp' },
  'bundle-errors.too-large': { limit: '512 MiB' },
  'bundle-errors.settings-unusable': { detail: d },
  'bundle-errors.not-from-bundle': { server: 'time' },
  'bundle-errors.not-zip': {},
  'bundle-errors.too-short': {},
  'bundle-errors.zip64-archive': {},
  'bundle-errors.split': {},
  'bundle-errors.directory-past-end': {},
  'bundle-errors.directory-entry-unreadable': { index: 3 },
  'bundle-errors.directory-name-past-end': { index: 3 },
  'bundle-errors.zip64-entry': { name: n },
  'bundle-errors.data-not-found': { name: n },
  'bundle-errors.data-past-end': { name: n },
  'bundle-errors.invalid-name': {},
  'bundle-errors.absolute-path': { name: '/tmp/x' },
  'bundle-errors.zip-slip': { name: '../x' },
  'bundle-errors.symlink': { name: n },
  'bundle-errors.not-regular': { name: n },
  'bundle-errors.past-header': { name: n, size: 10 },
  'bundle-errors.entry-too-large': { name: n, limit: '100 MiB' },
  'bundle-errors.total-too-large': { limit: '512 MiB' },
  'bundle-errors.entry-damaged': { name: n, detail: d },
  'bundle-errors.entry-size-mismatch': { name: n, written: 12, size: 10 },
  'bundle-errors.entry-checksum': { name: n },
  'bundle-errors.too-many-entries': { count: 900, max: 500 },
  'bundle-errors.entry-encrypted': { name: n },
  'bundle-errors.entry-method': { name: n, method: 12 },
  'bundle-errors.entry-twice': { name: n },
  'bundle-errors.entry-cannot-unpack': { name: n, detail: d },
  'bundle-errors.file-twice': { name: 'manifest.json' },
  'bundle-errors.file-folder': { name: 'manifest.json' },
  'bundle-errors.file-encrypted': { name: 'manifest.json' },
  'bundle-errors.file-too-large': { name: 'manifest.json', max: 512 },
  'bundle-errors.file-unpacks-more': { name: 'manifest.json', max: 512 },
  'bundle-errors.file-damaged': { name: 'manifest.json' },
  'bundle-errors.file-method': { name: 'manifest.json', method: 12 },
  'bundle-errors.file-checksum': { name: 'manifest.json' },
  'bundle-errors.signature-unreadable': { detail: d },
  'bundle-errors.signature-invalid': {},
  'bundle-errors.no-manifest': {},
  'bundle-errors.manifest-not-json': { detail: d },
  'bundle-errors.manifest-not-object': {},
  'bundle-errors.manifest-no-version': { supported: '0.1, 0.2, 0.3' },
  'bundle-errors.manifest-unknown-version': { declared: '"9.9"', supported: '0.1, 0.2, 0.3' },
  'bundle-errors.manifest-invalid': { detail: 'author: Expected object, received string' },
  'bundle-errors.entry-point-outside': { entryPoint: '../x.js' },
  'bundle-errors.no-setting': { key: 'extra' },
  'bundle-errors.setting-required': { title: 'API token' },
  'bundle-errors.setting-one-value': { title: 'Folder' },
  'bundle-errors.setting-on-off': { title: 'Verbose' },
  'bundle-errors.setting-number': { title: 'Count' },
  'bundle-errors.setting-min': { title: 'Count', min: 1 },
  'bundle-errors.setting-max': { title: 'Count', max: 3 },
  'bundle-errors.setting-text': { title: 'Name' },
  'bundle-errors.setting-path-relative': { title: 'Folder', kind: 'folder', path: 'docs' },
  'bundle-errors.setting-path-wrong-kind': { title: 'File', kind: 'file', path: '/tmp' },
  'bundle-errors.setting-path-missing': { title: 'Folder', kind: 'folder', path: '/tmp/gone' },
  'bundle-errors.secret-exposed': { title: 'API token', where: 'commandLine' },
  'bundle-errors.unconfirmed': { names: 'docker.sock, 127.0.0.1', count: 2, action: 'install' },
};

const SANDBOX_ERRORS: { [C in keyof SandboxErrorMessages]: SandboxErrorMessages[C] } = {
  'sandbox-errors.local-only': {},
  'sandbox-errors.unavailable': { reason: 'Windows is not supported yet' },
  'sandbox-errors.unavailable-install': {
    reason: 'bubblewrap (bwrap) is not installed',
    install: 'Install it with: sudo apt-get install bubblewrap socat ripgrep',
  },
  'sandbox-errors.domain-not-one-click': { domain: '127.0.0.1:8080' },
  'sandbox-errors.own-port': { domain: '127.0.0.1:5173' },
  'sandbox-errors.folder-entry': { folder: 'project', issue: 'notAbsolute' },
  'sandbox-errors.folder-protected': { folder: '/home/ann/.ssh', kind: 'secrets', place: '~/.ssh' },
  'sandbox-errors.folder-protected-link': {
    folder: '/home/ann/site',
    real: '/home/ann/.config/berth',
    kind: 'config',
    place: '~/.config/berth',
  },
  'sandbox-errors.no-fix-network': {},
  'sandbox-errors.no-fix-unreadable': {},
  'sandbox-errors.no-fix-protected': { kind: 'startup', place: '~/.bashrc' },
  'sandbox-errors.no-fix-write': {},
  'sandbox-errors.entry-issue': { issue: 'dots' },
  'sandbox-errors.entry-protected': { kind: 'holdsHome', place: '/home/ann' },
};

const APPS_ERRORS: { [C in keyof AppsErrorMessages]: AppsErrorMessages[C] } = {
  'apps-errors.no-sandbox': {},
  'apps-errors.list-not-running': { server: 'basic', status: 'crashed' },
  'apps-errors.call-not-running': { server: 'basic', status: 'crashed', tool: 'get-time' },
  'apps-errors.no-tool': { server: 'basic', tool: 'get-time' },
  'apps-errors.model-only': { server: 'basic', tool: 'get-time' },
  'apps-errors.not-a-link': {},
  'apps-errors.link-scheme': { scheme: 'file:' },
  'apps-errors.link-credentials': {},
  'apps-errors.no-tool-call': { id: 'toolu_1' },
  'apps-errors.call-of-other-server': { id: 'toolu_1', server: 'basic' },
  'apps-errors.result-too-large': { server: 'basic', tool: 'get-time', size: '12.5', max: 8 },
  'apps-errors.no-server': { server: 'basic' },
  'apps-errors.ui-not-running': { server: 'basic', status: 'crashed' },
  'apps-errors.read-ui-failed': { server: 'basic', uri: 'ui://basic/app.html', detail: d },
  'apps-errors.list-failed': { server: 'basic', detail: d },
  'apps-errors.ui-unusable': {
    server: 'basic',
    uri: 'ui://basic/app.html',
    reason: 'it is empty',
  },
  'apps-errors.ui-blob-not-base64': {},
  'apps-errors.ui-blob-not-utf8': {},
  'apps-errors.ui-meta-not-object': { value: 'a list' },
  'apps-errors.ui-csp-malformed': { path: 'connectDomains', detail: 'Invalid input' },
  'apps-errors.ui-csp-not-origin': { key: 'connectDomains', value: '"a b"' },
  'apps-errors.ui-permissions-not-object': { value: 'number' },
  'apps-errors.ui-no-content': {},
  'apps-errors.ui-too-many-items': { count: 21 },
  'apps-errors.ui-uri-not-sent': { count: 2 },
  'apps-errors.ui-wrong-mime': { value: '"text/html"', expected: 'text/html;profile=mcp-app' },
  'apps-errors.ui-too-large': { size: '6.2', max: '5.0' },
  'apps-errors.ui-no-body': {},
  'apps-errors.ui-empty': {},
  'apps-errors.context-too-large': { size: 70, max: 64 },
};
const CONSENT_ERRORS: { [C in keyof ConsentErrorMessages]: ConsentErrorMessages[C] } = {
  'consent-errors.bad-arguments': { tool: 'echo' },
  'consent-errors.rule-server-not-running': { server: 'everything' },
  'consent-errors.rule-matches-nothing': { server: 'everything', rule: 'tools named get-*' },
  'consent-errors.policy-not-found': { id: 'p1' },
  'consent-errors.pending-not-found': { id: 'r1' },
};

const WORKSPACE_ERRORS: { [C in keyof WorkspaceErrorMessages]: WorkspaceErrorMessages[C] } = {
  'workspace-errors.task-not-found': { id: 't1' },
  'workspace-errors.task-cancel-not-ready': { server: 'everything' },
  'workspace-errors.resource-too-large': { uri: 'file:///a.bin', server: 'fs', size: '12.5', max: 10 },
  'workspace-errors.resource-part-empty': { server: 'fs', uri: 'file:///a.bin' },
  'workspace-errors.no-subscriptions': { server: 'fs' },
  'workspace-errors.subscription-refused': { server: 'fs', uri: 'file:///a.txt' },
  'workspace-errors.prompt-unsupported': { server: 'everything', name: 'simple', index: 2, kind: 'video' },
  'workspace-errors.no-completions': { server: 'everything' },
  'workspace-errors.prompt-list-failed': { reason: "prompts/list on server 'everything' failed: boom" },
};

const SAMPLING_WORDS: { [C in keyof SamplingWordsMessages]: SamplingWordsMessages[C] } = {
  'sampling-words.no-preferences': {},
  'sampling-words.no-hints-or-priorities': {},
  'sampling-words.no-models': {},
  'sampling-words.model-not-listed': { model: 'ollama:ghost' },
};

// The codes a conversation's first family had (not found, its title…) read shorter in the catalog on purpose.
type ConversationCallCodes = Exclude<
  keyof ConversationErrorMessages,
  | 'conversation-errors.not-found'
  | 'conversation-errors.not-deleted'
  | 'conversation-errors.not-in-trash'
  | 'conversation-errors.model-missing'
  | 'conversation-errors.model-empty'
  | 'conversation-errors.title-missing'
  | 'conversation-errors.title-too-long'
>;
const CONVERSATION_ERRORS: { [C in ConversationCallCodes]: ConversationErrorMessages[C] } = {
  'conversation-errors.bad-id': { id: '"../config"' },
  'conversation-errors.trash-move-failed': { id: 'c1', detail: 'EACCES: permission denied' },
  'conversation-errors.trash-unreadable': { detail: 'EACCES: permission denied' },
  'conversation-errors.file-unreadable': { id: 'c1', detail: 'EIO: i/o error' },
  'conversation-errors.file-kept-aside': { id: 'c1', problem: 'notJson', detail: 'Unexpected end', movedTo: '/d/c1.x' },
  'conversation-errors.file-left': { id: 'c1', problem: 'otherId', detail: 'c9', moveError: 'EISDIR' },
  'conversation-errors.result-not-saved': {},
  'conversation-errors.result-gone': {},
  'conversation-errors.offset-past-end': { offset: 90, length: 12 },
  'conversation-errors.message-empty': {},
  'conversation-errors.nothing-to-retry': {},
  'conversation-errors.edit-empty': {},
  'conversation-errors.nothing-to-edit': {},
  'conversation-errors.reply-running': {},
  'conversation-errors.task-not-finished': { taskId: 't-7' },
  'conversation-errors.task-result-sent': {},
  'conversation-errors.not-failed': {},
  'conversation-errors.nothing-to-restore': {},
  'conversation-errors.not-editable': {},
  'conversation-errors.not-regenerable': {},
  'conversation-errors.too-many-versions': { max: 20 },
  'conversation-errors.version-gone': {},
  'conversation-errors.nothing-to-continue': {},
  'conversation-errors.temperature-above-provider': { model: 'claude-sonnet-4-5', max: 1 },
  'conversation-errors.max-tokens-above-window': { model: 'ollama:llama3.1:8b', window: 8192 },
};

const task = { tool: 'crawl', server: 'jobs' };
const TASK_ERRORS: { [C in keyof TaskErrorMessages]: TaskErrorMessages[C] } = {
  'task-errors.call-failed': { ...task, detail: 'disk full' },
  'task-errors.call-cancelled': task,
  'task-errors.reused-id': { ...task, taskId: 'reused' },
  'task-errors.not-followed': { ...task, detail: 'the connection to the server closed while it ran' },
  'task-errors.expired': { ...task, detail: 'Task not found' },
  'task-errors.failed': { ...task, detail: 'disk full' },
  'task-errors.cancelled': { ...task, detail: 'operator stopped it' },
  'task-errors.cancelled-by-server': task,
  'task-errors.cancelled-by-you': { ...task, by: 'stop' },
  'task-errors.status-by-you': { by: 'cancel' },
  'task-errors.status-berth-quit': {},
  'task-errors.status-process-ended': {},
  'task-errors.status-connection-closed': {},
  'task-errors.status-server-removed': {},
  'task-errors.status-waiting-restart': {},
  'task-errors.status-ttl-ran-out': {},
  'task-errors.status-no-handle': {},
  'task-errors.status-resume-failed': { detail: d },
  'task-errors.status-resume-expired': { detail: 'Task not found' },
  'task-errors.status-cancel-failed': { detail: 'the connection closed' },
  'task-errors.status-lost-track': { detail: 'the connection closed' },
  'task-errors.status-expired': {},
  'task-errors.status-server-reconnected': { server: 'asker' },
  'task-errors.status-server-disconnected': { server: 'asker' },
  'task-errors.status-server-gone': { server: 'asker' },
  'task-errors.status-berth-quitting': {},
  'task-errors.status-server-cancelled': { server: 'asker' },
  'task-errors.status-you-cancelled': {},
};

// The roots family's first codes read as sentences in the catalog; the codes coded later say exactly what the host says.
type EarlyRootCodes =
  | 'root-errors.cannot-add'
  | 'root-errors.cannot-share-new'
  | 'root-errors.already-root'
  | 'root-errors.not-found'
  | 'root-errors.browse-not-folder'
  | 'root-errors.browse-missing'
  | 'root-errors.browse-missing-file-in-path'
  | 'root-errors.browse-forbidden'
  | 'root-errors.browse-failed'
  | 'root-errors.name-missing'
  | 'root-errors.name-too-long'
  | 'root-errors.name-control';
const ROOT_ERRORS: { [C in Exclude<keyof RootErrorMessages, EarlyRootCodes>]: RootErrorMessages[C] } = {
  'root-errors.not-removed': { id: 'r1' },
  'root-errors.root-again': { path: '/home/a/project', name: 'Project' },
  'root-errors.server-name-missing': {},
  'root-errors.broad-folder': { path: '/home', scope: 'holdsHome', home: '/home/a' },
  'root-errors.save-blocked': { file: '/home/a/.berth/state/roots.json', detail: d },
  'root-errors.save-failed': { file: '/home/a/.berth/state/roots.json', detail: 'EACCES' },
  'root-errors.no-folder-dialog': { shell: 'browser' },
  'root-errors.removed-already': { id: 'r1' },
  'root-errors.folder-unusable': { path: '/home/a/gone', problem: 'unchecked', detail: 'EIO' },
  'root-errors.link-moved': { picked: '/home/a/link', real: '/home/a/b', shared: '/home/a/a' },
  'root-errors.path-empty': {},
  'root-errors.path-nul': { path: '/a\u0000b' },
  'root-errors.path-dot-segment': { path: '/a/../b', segment: '..' },
  'root-errors.path-windows-name': { path: 'C:\\a?b', name: 'a?b' },
  'root-errors.path-windows-on-posix': { path: 'C:\\Users\\me' },
  'root-errors.path-relative-posix': { path: 'project' },
  'root-errors.path-device': { path: '\\\\?\\C:\\x' },
  'root-errors.path-unc-incomplete': { path: '\\\\server' },
  'root-errors.path-bad-host': { path: '\\\\bad_host\\share', host: 'bad_host' },
  'root-errors.path-drive-relative': { path: 'C:Users', drive: 'C:' },
  'root-errors.path-no-drive': { path: '\\Users\\me' },
  'root-errors.path-relative-windows': { path: 'Users\\me' },
  'root-errors.path-not-unicode': { path: '/tmp/x' },
};
const tailOf = { serverLine: '', host: '' };
const START_FAILURES: { [C in keyof StartFailureMessages]: StartFailureMessages[C] } = {
  'server-start.handshake-timeout': { stage: 'handshake', seconds: 30, tail: 'none', ...tailOf },
  'server-start.handshake-exited': {
    stage: 'tools',
    exitKind: 'signal',
    exit: 'SIGSEGV',
    tail: 'stderr',
    serverLine: 'fatal: boom',
    host: '',
  },
  'server-start.handshake-failed': { stage: 'tools', detail: 'fetch failed', tail: 'service', ...tailOf },
  'server-start.output-closed': {},
  'server-start.no-oauth-offered': { where: url },
  'server-start.oauth-failed': { where: url, detail: d },
  'server-start.http-refused': { where: url, http: 'HTTP 500 Internal Server Error' },
  'server-start.header-refused': { where: url, http: 'HTTP 401 Unauthorized' },
  'server-start.secret-unreadable': { section: 'headers', key: 'Authorization', detail: 'the keychain is locked' },
  'server-start.secret-missing': { section: 'env', key: 'TOKEN', ref: '${secret:server/gh/env/TOKEN}', server: 'gh' },
};
// Every tail of a start failure, on each stage's head.
const START_TAILS = (
  ['none', 'stderr', 'network', 'networkStderr', 'service', 'serviceStderr', 'key', 'keyStderr'] as const
)
  .flatMap((tail) => [
    {
      stage: 'handshake' as const,
      seconds: 30,
      tail,
      serverLine: 'getaddrinfo ENOTFOUND mcp.stripe.com',
      host: 'mcp.stripe.com',
    },
    { stage: 'tools' as const, seconds: 2.5, tail, serverLine: 'Error: 401 Unauthorized', host: 'api.example' },
  ])
  .map((params) => startWords('server-start.handshake-timeout', params));

type NewServerErrors = Pick<
  ServerErrorMessages,
  | 'server-errors.output-closed-during'
  | 'server-errors.no-logging'
  | 'server-errors.reconnect-failed'
  | 'server-errors.reconnect-failed-status'
  | 'server-errors.reconnect-cancelled'
  | 'server-errors.reconnect-timeout'
  | 'server-errors.link-broken-during'
>;
const lost = { name: 'remote', subject: "prompts/get prompt 'greet'", cause: 'session-lost' as const };
const SERVER_ERRORS: { [C in keyof NewServerErrors]: NewServerErrors[C] } = {
  'server-errors.output-closed-during': { name: 'a', method: 'tools/call' },
  'server-errors.no-logging': { name: 'a' },
  'server-errors.reconnect-failed': { ...lost, reason: 'removed' },
  'server-errors.reconnect-failed-status': { name: 'remote', subject: '', cause: 'reconnecting', status: 'stopped' },
  'server-errors.reconnect-cancelled': { name: 'remote', subject: '', cause: 'reconnecting' },
  'server-errors.reconnect-timeout': { ...lost, seconds: 30 },
  'server-errors.link-broken-during': { name: 'a', detail: 'sent a message over 4 MB', method: 'tools/call' },
};
const OUTPUT_CLOSED_STATE: Pick<ServerStateMessages, 'server-state.output-closed'> = {
  'server-state.output-closed': {},
};
const SKILLS_ERRORS: { [C in keyof SkillsErrorMessages]: SkillsErrorMessages[C] } = {
  'skills-errors.no-skill': { server: 'docs', uri: 'skill://report-writing/SKILL.md' },
  'skills-errors.refused': { name: 'docs/report-writing', detail: 'its name is not valid' },
  'skills-errors.declined': { name: 'docs/report-writing' },
  'skills-errors.no-skill-md': { name: 'docs/report-writing' },
  'skills-errors.file-failed': {
    server: 'docs',
    uri: 'skill://report-writing/SKILL.md',
    name: 'docs/report-writing',
    detail: d,
  },
  'skills-errors.file-empty': { server: 'docs', uri: 'skill://report-writing/SKILL.md', name: 'docs/report-writing' },
  'skills-errors.unverified': { detail: 'SKILL.md does not match its SHA-256 digest in the server’s manifest' },
};

const BRIDGE_ERRORS: { [C in keyof BridgeErrorMessages]: BridgeErrorMessages[C] } = {
  'bridge-errors.unknown-method': { method: '"servers.explode"' },
  'bridge-errors.method-not-string': { type: 'number' },
  'bridge-errors.input-unreadable': { method: 'servers.add', detail: d },
  'bridge-errors.bug': { method: 'servers.add', detail: d },
  'bridge-errors.bug-dispatching': { detail: d },
  'bridge-errors.reply-not-serializable': { detail: d },
  'bridge-errors.shutting-down': {},
  'bridge-errors.too-long': { field: 'text', max: 100000 },
  'bridge-errors.at-most': { field: 'timeoutMs', max: 600000 },
  'bridge-errors.too-many': { field: 'attachments', max: 20 },
  'bridge-errors.empty': { field: 'label' },
  'bridge-errors.too-short': { field: 'apiKey', min: 8 },
  'bridge-errors.at-least': { field: 'countAbove', min: 1 },
  'bridge-errors.too-few': { field: 'registries', min: 2 },
  'bridge-errors.missing': { field: 'server' },
  'bridge-errors.not-a-choice': { field: 'level' },
  'bridge-errors.bad-form': { field: 'url' },
  'bridge-errors.not-valid': { field: '' },
  'bridge-errors.unknown-field': { field: 'surprise' },
  'bridge-errors.schema-words': { field: 'text', detail: 'Write a message first.' },
};
const CONFIG_PROBLEMS: { [C in keyof ConfigProblemMessages]: ConfigProblemMessages[C] } = {
  'config-problems.too-deep': { max: 64 },
  'config-problems.not-object': { found: 'array' },
  'config-problems.servers-twice': {},
  'config-problems.servers-not-object': { found: 'nothing' },
  'config-problems.name-twice': { name: 'files' },
  'config-problems.key-twice': { key: 'env.TOKEN' },
  'config-problems.name-not-allowed': { name: ' files ', rule: 'spaces' },
  'config-problems.name-rule': { rule: 'characters' },
  'config-problems.entry-not-object': { name: 'files', found: 'string' },
  'config-problems.command-missing': { name: 'files' },
  'config-problems.field-missing': { name: 'files', key: 'url' },
  'config-problems.wrong-type': { name: 'files', key: 'args', expected: 'array', found: 'string' },
  'config-problems.unknown-keys': { name: 'files', key: 'timeouts', keys: '"startup"', count: 1 },
  'config-problems.entry-unknown-keys': { name: 'files', keys: '"comand", "arg"', count: 2 },
  'config-problems.syntax': { error: 'ValueExpected' },
  'config-problems.bom': {},
  'config-problems.trailing-comma': { found: ']' },
  'config-problems.ends-early': {
    reason: configProblem('config-problems.syntax', { error: 'CloseBraceExpected' }).text,
  },
};
// Every error the JSON parser names, and one it may name some day.
const SYNTAX_ERRORS = [...Object.keys(SYNTAX_WORDS), 'InvalidFutureThing'].map((error) =>
  configProblem('config-problems.syntax', { error }),
);
// Every type a value can be found as, and every rule a name can break.
const CONFIG_TYPES = (['nothing', 'null', 'array', 'object', 'string', 'number', 'true', 'false'] as const).map(
  (found) => configProblem('config-problems.wrong-type', { name: 'a', key: 'env', expected: 'object', found }),
);
const NAME_RULES = (['empty', 'tooLong', 'characters', 'spaces'] as const).map((rule) =>
  configProblem('config-problems.name-not-allowed', { name: 'x', rule }),
);

/** One family's host words (either shape of shared/domain/host-wording.ts's maker), as English and code. */
type Family = (code: string, params: never) => Worded | CodedText;
const PENDING_ERRORS: { [C in keyof PendingErrorMessages]: PendingErrorMessages[C] } = {
  'pending-errors.payload-mismatch': { kind: 'sampling', path: 'messages.0', detail: 'Invalid input' },
  'pending-errors.answer-invalid': { kind: 'tool-call', detail: 'Invalid input' },
  'pending-errors.answer-invalid-at': { kind: 'tool-call', path: 'arguments', detail: 'Invalid input' },
  'pending-errors.fix-form': {
    field: 'Name',
    reason: 'Enter text',
    more: 0,
  },
  'pending-errors.roots-not-asked': { ids: 'r1, r2' },
  'pending-errors.model-not-offered': { model: 'claude-x' },
  'pending-errors.max-tokens-over': { max: 1000 },
  'pending-errors.message-invalid': { index: 2, detail: 'role: Invalid option' },
  'pending-errors.answer-content-invalid': { detail: 'type: Invalid option' },
  'pending-errors.answer-one-block': { detail: 'type: Invalid option' },
  'pending-errors.field-required': { field: 'Colour', verb: 'choose' },
  'pending-errors.field-text': {},
  'pending-errors.field-too-short': { min: 3, now: 2 },
  'pending-errors.field-too-long': { max: 1, now: 4 },
  'pending-errors.field-email': {},
  'pending-errors.field-uri': {},
  'pending-errors.field-date': {},
  'pending-errors.field-date-time': {},
  'pending-errors.field-whole-number': {},
  'pending-errors.field-number': {},
  'pending-errors.field-number-size': {},
  'pending-errors.field-fraction': { value: '12.5' },
  'pending-errors.field-between': { min: 1, max: 10 },
  'pending-errors.field-at-least': { min: 0 },
  'pending-errors.field-at-most': { max: 99 },
  'pending-errors.field-one-of-listed': {},
  'pending-errors.field-from-listed': {},
  'pending-errors.field-only-listed': { values: "'x', 'y'" },
  'pending-errors.field-each-once': {},
  'pending-errors.field-min-options': { min: 2 },
  'pending-errors.field-max-options': { max: 1 },
  'pending-errors.field-yes-no': {},
  'pending-errors.not-a-field': { key: 'extra' },
};
const CONFIG_IMPORT_ERRORS: { [C in keyof ConfigImportErrorMessages]: ConfigImportErrorMessages[C] } = {
  'config-import-errors.undeclared-input': { field: 'args.1', input: 'token' },
  'config-import-errors.enter-value': { description: 'GitHub token', input: 'token' },
  'config-import-errors.not-a-choice': { answer: 'eu', description: 'Region', choices: 'us, asia' },
  'config-import-errors.env-not-set': { field: 'env.TOKEN', variable: 'GH_TOKEN' },
  'config-import-errors.env-not-set-no-default': { field: 'env.TOKEN', variable: 'GH_TOKEN' },
  'config-import-errors.needs-project-folder': { field: 'cwd' },
  'config-import-errors.variable-unknown': { field: 'cwd', variable: 'fileDirname' },
  'config-import-errors.no-command-or-url': { server: 'github' },
  'config-import-errors.needs-value': { server: 'github', description: 'GitHub token', input: 'token' },
  'config-import-errors.needs-values': {
    server: 'github',
    list: '"GitHub token" (input "token"), "Region" (input "r")',
  },
  'config-import-errors.invalid-after-fill': { server: 'github', field: 'command', detail: 'Enter the command' },
  'config-import-errors.folder-not-absolute': { folder: 'project' },
  'config-import-errors.file-unreadable': { reason: d },
  'config-import-errors.file-unreadable-at': {
    line: 3,
    column: 7,
    reason: configImportError('config-import-errors.comment', {}).text,
  },
  'config-import-errors.selected-twice': { server: 'github' },
  'config-import-errors.no-longer-in-file': { server: 'github' },
  'config-import-errors.name-taken': { name: 'github' },
  'config-import-errors.name-twice': { name: 'gh', other: 'github' },
  'config-import-errors.duplicate-name': { name: 'github' },
  'config-import-errors.duplicate-command': { name: 'github' },
  'config-import-errors.file-empty': {},
  'config-import-errors.file-not-object': { found: 'array' },
  'config-import-errors.no-section': { key: 'mcpServers' },
  'config-import-errors.no-section-other': { key: 'servers', other: 'mcpServers' },
  'config-import-errors.section-not-object': { key: 'servers', found: 'string' },
  'config-import-errors.server-name-twice': { server: 'github' },
  'config-import-errors.entry-not-object': { server: 'github', found: 'null' },
  'config-import-errors.type-unknown': { server: 'github', found: '"websocket"' },
  'config-import-errors.url-missing': { server: 'github', found: 'nothing' },
  'config-import-errors.headers-not-object': { found: 'array' },
  'config-import-errors.header-not-string': { key: 'Authorization', found: 'number' },
  'config-import-errors.command-and-url': { server: 'github' },
  'config-import-errors.command-missing': { server: 'github' },
  'config-import-errors.wrong-type': { server: 'github', key: 'args', expected: 'array' },
  'config-import-errors.invalid-key': { server: 'github', key: 'env', detail: d },
  'config-import-errors.invalid-field': { server: 'github', key: 'cwd', detail: d },
  'config-import-errors.invalid-entry': { server: 'github', detail: d },
  'config-import-errors.env-file': { server: 'github' },
  'config-import-errors.input-not-declared': { server: 'github', input: 'token' },
  'config-import-errors.input-not-valid': { server: 'github', input: 'token' },
  'config-import-errors.password-in-args': { server: 'github' },
  'config-import-errors.inputs-not-array': { found: 'object' },
  'config-import-errors.input-not-object': { position: 2, found: 'true' },
  'config-import-errors.input-id-missing': { position: 1 },
  'config-import-errors.input-id-twice': { input: 'token' },
  'config-import-errors.input-type': { input: 'token', found: '"secret"' },
  'config-import-errors.input-type-missing': { input: 'token' },
  'config-import-errors.input-description': { input: 'token' },
  'config-import-errors.input-password': { input: 'token' },
  'config-import-errors.input-default': { input: 'token' },
  'config-import-errors.input-options': { input: 'region' },
  'config-import-errors.comment': {},
  'config-import-errors.comment-not-closed': {},
  'config-import-errors.trailing-comma': { found: '}' },
};

// A base URL's credentials refused: the catalog says what the host says (the family's older codes are worded apart).
const PROVIDER_ERRORS: {
  [
    C in 'provider-errors.base-url-credentials' | 'provider-errors.anthropic-base-url-credentials'
  ]: ProviderErrorMessages[C];
} = {
  'provider-errors.base-url-credentials': { provider: 'Ollama' },
  'provider-errors.anthropic-base-url-credentials': {},
};

function samples<M>(table: M, family: Family): Worded[] {
  return Object.entries(table as Record<string, never>).map(([code, params]) => {
    const made = family(code, params);
    return 'message' in made ? made : { text: made.text, message: made.hostMessage };
  });
}

const ALL = [
  ...samples(CHAT_ERRORS, chatError as Family),
  ...samples(CHAT_NOTICES, chatNotice as Family),
  ...samples(WITHDRAWALS, withdrawal as Family),
  ...samples(TOOL_OUTCOMES, toolOutcome as Family),
  ...samples(CONFIG_ERRORS, configError as Family),
  ...samples(CREDENTIAL_ERRORS, credentialError as Family),
  ...samples(SETTINGS_ERRORS, settingsError as Family),
  ...samples(REGISTRY_ERRORS, registryError as Family),
  ...samples(BUNDLE_ERRORS, bundleError as Family),
  ...samples(SANDBOX_ERRORS, sandboxError as Family),
  ...samples(APPS_ERRORS, appsError as Family),
  ...samples(CONSENT_ERRORS, consentError as Family),
  ...samples(WORKSPACE_ERRORS, workspaceError as Family),
  ...samples(SAMPLING_WORDS, samplingWords as Family),
  ...samples(CONVERSATION_ERRORS, conversationError as Family),
  ...samples(TASK_ERRORS, taskError as Family),
  ...samples(ROOT_ERRORS, rootError as Family),
  ...samples(START_FAILURES, startWords as Family),
  ...START_TAILS.map(({ text, hostMessage }) => ({ text, message: hostMessage })),
  ...samples(SERVER_ERRORS, serverError as Family),
  ...samples(OUTPUT_CLOSED_STATE, serverStateReason as Family),
  ...samples(BRIDGE_ERRORS, bridgeError as Family),
  ...samples(PENDING_ERRORS, pendingError as Family),
  ...samples(SKILLS_ERRORS, skillsError as Family),
  ...samples(CONFIG_IMPORT_ERRORS, configImportError as Family),
  ...samples(PROVIDER_ERRORS, providerError as Family),
  ...samples(CONFIG_PROBLEMS, configProblem as Family),
  ...[...CONFIG_TYPES, ...NAME_RULES, ...SYNTAX_ERRORS].map(({ text, hostMessage }) => ({
    text,
    message: hostMessage,
  })),
];

/** A tool result's English is written to the model ("the user"); the catalog speaks to the person ("you"). */
const toThePerson = (text: string): string => text.replace('ask the user', 'ask you');

/** The words without quote marks (straight or typographic) and a sentence's leading space. */
const plain = (text: string): string => text.replace(/['‘’“”"]/g, '').trim();

beforeAll(() => activateLocale('en'));
afterAll(() => activateLocale('en'));

describe("the English catalog says what the host's English says", () => {
  it.each(ALL.map((worded) => [worded.message.code, worded] as const))('%s', (_, { text, message }) => {
    const worded = hostText(message, '(no words in the catalog)');
    expect(plain(worded)).toBe(plain(toThePerson(text)));
  });
});

// A server state's reason is worded for the state's label ("Stopped by you"), not as the host's terse English
// ("stopped", what the log says): the two differ on purpose, so these codes are checked in every language
// instead — worded by the catalog, each fact in place, the reason inside a restart policy's words worded too.
const exited = serverStateReason('server-state.exited-stderr', { exit: 'SIGKILL', stderr: 'out of memory' });
const SERVER_STATES: { [C in ServerStateCode]: ServerStateMessages[C] } = {
  'server-state.stopped': {},
  'server-state.config-changed': {},
  'server-state.restarting': {},
  'server-state.removed': {},
  'server-state.host-shut-down': {},
  'server-state.needs-sign-in': { where: 'https://mcp.example' },
  'server-state.unreachable': { where: 'https://mcp.example', detail: d },
  'server-state.exited': { exit: '1' },
  'server-state.exited-stderr': { exit: 'SIGKILL', stderr: 'out of memory' },
  'server-state.closed': {},
  'server-state.closed-stderr': { stderr: 'out of memory' },
  'server-state.broken': { detail: d },
  'server-state.session-gone': {},
  'server-state.connection-lost': { where: 'https://mcp.example', detail: d },
  'server-state.connection-lost-server': { detail: d },
  'server-state.restart-off': { reason: exited.text },
  'server-state.gave-up': { restarts: 3, reason: exited.text },
  'server-state.output-closed': {},
};
const SERVER_STATE_SAMPLES = samples(SERVER_STATES, serverStateReason as Family);
const LOCALES: UiLocale[] = ['en', 'zh-CN', 'zh-TW', 'ko', 'ja'];
/** The facts a reason's words must keep (a reason inside it is worded apart: its English is not kept). */
const facts = (params: Record<string, string | number> = {}): string[] =>
  Object.entries(params)
    .filter(([name]) => name !== 'reason')
    .map(([, value]) => String(value));

describe.each(LOCALES)("a server state's reason in %s", (locale) => {
  beforeAll(() => activateLocale(locale));

  it.each(SERVER_STATE_SAMPLES.map((worded) => [worded.message.code, worded] as const))(
    '%s is worded by the catalog with its facts',
    (_, { message }) => {
      const worded = hostText(message, '(no words in the catalog)');
      expect(worded).not.toBe('(no words in the catalog)');
      expect(worded).not.toMatch(/[<>{}]/);
      for (const fact of facts(message.params)) expect(worded).toContain(fact);
    },
  );

  it("words the crash inside the restart policy's words in the same language, not in English", () => {
    const inner = hostText(exited.hostMessage, exited.text);
    for (const code of ['server-state.restart-off', 'server-state.gave-up'] as const) {
      const outer = hostText(
        serverStateReason(code, { restarts: 3, reason: exited.text }, exited.hostMessage).hostMessage,
        '',
      );
      expect(outer).toContain(inner);
      expect(outer).not.toContain(exited.text);
    }
  });
});
