import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatError, type ChatErrorMessages } from '../../shared/domain/chat-error';
import { chatNotice, type ChatNoticeMessages } from '../../shared/domain/chat-notice';
import type { CodedText, Worded } from '../../shared/domain/host-wording';
import { withdrawal, type WithdrawalMessages } from '../../shared/domain/withdrawal';
import { toolOutcome, type ToolOutcomeMessages } from '../../shared/domain/tool-outcome';
import { configError, type ConfigErrorMessages } from '../../shared/domain/config-errors';
import { credentialError, type CredentialErrorMessages } from '../../shared/domain/credential-errors';
import { settingsError, type SettingsErrorMessages } from '../../shared/domain/settings-errors';
import { registryError, type RegistryErrorMessages } from '../../shared/domain/registry-errors';
import { bundleError, type BundleErrorMessages } from '../../shared/domain/bundle-errors';
import { sandboxError, type SandboxErrorMessages } from '../../shared/domain/sandbox-errors';
import { appsError, type AppsErrorMessages } from '../../shared/domain/apps-errors';
import { consentError, type ConsentErrorMessages } from '../../shared/domain/consent-errors';
import { workspaceError, type WorkspaceErrorMessages } from '../../shared/domain/workspace-errors';
import { samplingWords, type SamplingWordsMessages } from '../../shared/domain/sampling-words';
import { startWords, type StartFailureMessages } from '../../shared/domain/server-start-error';
import { serverError, type ServerErrorMessages } from '../../shared/domain/server-errors';
import { serverStateReason, type ServerStateMessages } from '../../shared/domain/server-state-reasons';
import { configProblem, type ConfigProblemMessages } from '../../shared/domain/config-problems';
import { hostText } from './host-message';
import { activateLocale } from './i18n';

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
  'config-errors.file-has-errors': { file: '/home/a/.berth/config.json', detail: 'line 3, column 1: missing comma' },
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
  'config-errors.edit-invalid': { detail: 'line 3, column 1: Expected a value' },
};

const CREDENTIAL_ERRORS: { [C in keyof CredentialErrorMessages]: CredentialErrorMessages[C] } = {
  'credential-errors.local-server': { server: 'everything' },
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
};

/** A failure family's words as the chat families give theirs: its English and its code. */
const asWorded =
  (family: (code: string, params: never) => CodedText) =>
  (code: string, params: never): Worded => {
    const { text, hostMessage } = family(code, params);
    return { text, message: hostMessage };
  };
const configErrorWords = asWorded(configError as (code: string, params: never) => CodedText);
const REGISTRY_ERRORS: { [C in keyof RegistryErrorMessages]: RegistryErrorMessages[C] } = {
  'registry-errors.review-gone': {},
  'registry-errors.not-from-registry': { server: 'time' },
  'registry-errors.update-needs-more': { version: '2.0.0', name: 'io.github.x/weather', detail: d },
  'registry-errors.update-asks-more': { version: '2.0.0', name: 'io.github.x/weather', detail: d },
  'registry-errors.no-such-entry': { detail: d },
  'registry-errors.unreachable': { detail: d },
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
  'apps-errors.ui-unusable': { server: 'basic', uri: 'ui://basic/app.html', why: 'it is empty' },
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
  | 'server-errors.berth-shutting-down'
  | 'server-errors.output-closed-during'
  | 'server-errors.no-logging'
  | 'server-errors.reconnect-failed'
  | 'server-errors.reconnect-failed-status'
  | 'server-errors.reconnect-cancelled'
  | 'server-errors.reconnect-timeout'
>;
const lost = { name: 'remote', subject: "prompts/get prompt 'greet'", cause: 'session-lost' as const };
const SERVER_ERRORS: { [C in keyof NewServerErrors]: NewServerErrors[C] } = {
  'server-errors.berth-shutting-down': {},
  'server-errors.output-closed-during': { name: 'a', method: 'tools/call' },
  'server-errors.no-logging': { name: 'a' },
  'server-errors.reconnect-failed': { ...lost, reason: 'removed' },
  'server-errors.reconnect-failed-status': { name: 'remote', subject: '', cause: 'reconnecting', status: 'stopped' },
  'server-errors.reconnect-cancelled': { name: 'remote', subject: '', cause: 'reconnecting' },
  'server-errors.reconnect-timeout': { ...lost, seconds: 30 },
};
const SERVER_STATES: Pick<ServerStateMessages, 'server-state.output-closed'> = { 'server-state.output-closed': {} };

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
};
// Every type a value can be found as, and every rule a name can break.
const CONFIG_TYPES = (['nothing', 'null', 'array', 'object', 'string', 'number', 'true', 'false'] as const).map(
  (found) => configProblem('config-problems.wrong-type', { name: 'a', key: 'env', expected: 'object', found }),
);
const NAME_RULES = (['empty', 'tooLong', 'characters', 'spaces'] as const).map((rule) =>
  configProblem('config-problems.name-not-allowed', { name: 'x', rule }),
);

function samples<M>(table: M, words: (code: keyof M & string, params: never) => Worded): Worded[] {
  return Object.entries(table as Record<string, never>).map(([code, params]) =>
    words(code as keyof M & string, params),
  );
}

/** A failure's family (text and hostMessage) read as the chat's families are. */
function failures<M>(table: M, words: (code: string, params: never) => CodedText): Worded[] {
  return samples(table, (code, params) => {
    const { text, hostMessage } = words(code, params);
    return { text, message: hostMessage };
  });
}

const ALL = [
  ...samples(CHAT_ERRORS, chatError as (code: string, params: never) => Worded),
  ...samples(CHAT_NOTICES, chatNotice as (code: string, params: never) => Worded),
  ...samples(WITHDRAWALS, withdrawal as (code: string, params: never) => Worded),
  ...samples(TOOL_OUTCOMES, toolOutcome as (code: string, params: never) => Worded),
  ...samples(CONFIG_ERRORS, configErrorWords),
  ...samples(CREDENTIAL_ERRORS, asWorded(credentialError as (code: string, params: never) => CodedText)),
  ...samples(SETTINGS_ERRORS, asWorded(settingsError as (code: string, params: never) => CodedText)),
  ...failures(REGISTRY_ERRORS, registryError as (code: string, params: never) => CodedText),
  ...failures(BUNDLE_ERRORS, bundleError as (code: string, params: never) => CodedText),
  ...failures(SANDBOX_ERRORS, sandboxError as (code: string, params: never) => CodedText),
  ...failures(APPS_ERRORS, appsError as (code: string, params: never) => CodedText),
  ...failures(CONSENT_ERRORS, consentError as (code: string, params: never) => CodedText),
  ...failures(WORKSPACE_ERRORS, workspaceError as (code: string, params: never) => CodedText),
  ...failures(SAMPLING_WORDS, samplingWords as (code: string, params: never) => CodedText),
  ...failures(START_FAILURES, startWords as (code: string, params: never) => CodedText),
  ...START_TAILS.map(({ text, hostMessage }) => ({ text, message: hostMessage })),
  ...failures(SERVER_ERRORS, serverError as (code: string, params: never) => CodedText),
  ...failures(SERVER_STATES, serverStateReason as (code: string, params: never) => CodedText),
  ...failures(CONFIG_PROBLEMS, configProblem as (code: string, params: never) => CodedText),
  ...[...CONFIG_TYPES, ...NAME_RULES].map(({ text, hostMessage }) => ({ text, message: hostMessage })),
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
