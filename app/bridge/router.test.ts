import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type Handlers, type MethodName } from '../../shared/contract';
import { HostError, type Failure, type Result } from '../../shared/result';
import { createRouter } from './router';
import { serverError } from '../../shared/domain/server-errors';

/** One valid input per method; the test below fails when a method is added without one. */
const VALID_INPUTS: Record<MethodName, Record<string, unknown>> = {
  'app.info': {},
  'config.status': {},
  'config.saveText': { text: '{"mcpServers":{}}' },
  'servers.list': {},
  'registry.sources': {},
  'registry.setSources': { registries: ['https://registry.modelcontextprotocol.io'] },
  'registry.search': { registry: 'https://registry.modelcontextprotocol.io', query: 'files' },
  'registry.details': { registry: 'https://registry.modelcontextprotocol.io', name: 'io.github.x/y' },
  'registry.versions': { registry: 'https://registry.modelcontextprotocol.io', name: 'io.github.x/y' },
  'registry.review': {
    registry: 'https://registry.modelcontextprotocol.io',
    name: 'io.github.x/y',
    option: 0,
    serverName: 'y',
    values: { 'env:KEY': 'v' },
  },
  'registry.install': { reviewId: 'r-1' },
  'registry.updates': {},
  'registry.update': { server: 'y' },
  'servers.add': { name: 'everything', config: { command: 'node', args: ['server.js'] } },
  'servers.update': { name: 'everything', newName: 'renamed', config: { command: 'node' } },
  'servers.remove': { name: 'everything' },
  'servers.start': { name: 'everything' },
  'servers.stop': { name: 'everything' },
  'servers.restart': { name: 'everything' },
  'servers.signIn': { name: 'everything' },
  'servers.signOut': { name: 'everything' },
  'servers.setEnabled': { name: 'everything', enabled: false },
  'servers.setLogLevel': { name: 'everything', level: 'debug' },
  'logs.query': { server: 'everything', sources: ['stderr'], minLevel: 'info', text: 'x', afterSeq: 3, limit: 10 },
  'logs.followTrace': {},
  'logs.clear': { server: 'everything' },
  'chat.list': {},
  'chat.get': { id: 'c-1' },
  'chat.readResult': { id: 'c-1', toolUseId: 'toolu_1', offset: 0, limit: 1000 },
  'chat.create': { model: 'claude-sonnet-4-5' },
  'chat.rename': { id: 'c-1', title: 'Trip plans' },
  'chat.delete': { id: 'c-1' },
  'chat.restore': { id: 'c-1' },
  'chat.send': { id: 'c-1', text: 'hello', model: 'claude-sonnet-4-5' },
  'chat.stop': { id: 'c-1' },
  'chat.retryNow': { id: 'c-1' },
  'chat.retry': { id: 'c-1' },
  'chat.discardFailed': { id: 'c-1', messageId: 'm-1' },
  'chat.restoreFailed': { id: 'c-1', messageId: 'm-1' },
  'chat.editAndResend': { id: 'c-1', text: 'hello again' },
  'chat.compactAndRetry': { id: 'c-1' },
  'chat.continue': { id: 'c-1' },
  'chat.context': { id: 'c-1' },
  'chat.setContextPolicy': { id: 'c-1', policy: 'drop' },
  'chat.sendTaskResult': { id: 'c-1', taskId: 't-1' },
  'chat.setBackgroundTasks': { id: 'c-1', mode: 'continue' },
  'chat.tools': { id: 'c-1' },
  'chat.setTools': { id: 'c-1', disabledServers: ['everything'], disabledTools: ['memory/read_graph'] },
  'chat.setToolSearch': { id: 'c-1', mode: 'on' },
  'chat.unloadTools': { id: 'c-1', tools: ['memory/read_graph'] },
  'chat.setToolSearchThresholds': { countAbove: 128, shareAbove: 0.1 },
  'chat.setReasoning': { id: 'c-1', level: 'medium' },
  'chat.setModel': { id: 'c-1', model: 'claude-sonnet-5' },
  'chat.reasoningDefaults': {},
  'chat.search': { query: 'kiel ferry', limit: 20 },
  'chat.setPinned': { id: 'c-1', pinned: true },
  'chat.setReasoningDefaults': { sampling: true },
  'chat.editAt': { id: 'c-1', messageId: 'm-1', text: 'hello, edited' },
  'chat.regenerate': { id: 'c-1', messageId: 'm-2', model: 'claude-sonnet-5' },
  'chat.switchVersion': { id: 'c-1', after: 'm-1', version: 1 },
  'settings.get': {},
  'settings.setApiKey': { apiKey: 'sk-ant-test-0123456789' },
  'settings.clearApiKey': {},
  'settings.setDefaultModel': { model: 'claude-sonnet-4-5' },
  'settings.setLanguage': { language: 'ko' },
  'settings.setAppearance': { theme: 'dark' },
  'providers.list': {},
  'providers.add': {
    provider: {
      id: 'ollama',
      label: 'Ollama',
      preset: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      models: [{ id: 'llama3.1:8b' }],
    },
    apiKey: 'sk-0123456789',
  },
  'providers.update': { id: 'ollama', changes: { label: 'Local', models: [{ id: 'qwen3', supportsTools: false }] } },
  'providers.remove': { id: 'ollama' },
  'providers.setKey': { id: 'openai', apiKey: 'sk-0123456789' },
  'providers.clearKey': { id: 'openai' },
  'providers.listModels': { id: 'ollama' },
  'providers.check': { id: 'ollama', model: 'llama3.1:8b' },
  'pending.list': {},
  'pending.answer': { id: 'p-1', response: { decision: 'allow-once' } },
  'consent.policies': {},
  'consent.revoke': { id: 'policy-1' },
  'consent.addRule': { server: 'files', rule: { kind: 'read-only' } },
  'consent.audit': { limit: 50 },
  'sampling.policies': {},
  'sampling.setPolicy': { server: 'everything', policy: 'never' },
  'sampling.usage': {},
  'sampling.setLimits': { server: 'everything', limits: { maxTokens: 2_000, sessionBudget: 50_000 } },
  'sampling.declineAll': { server: 'everything', refuseForSession: false },
  'sampling.resetUsage': { server: 'everything' },
  'sampling.models': {},
  'sampling.setModelRanks': {
    model: 'claude-haiku-4-5',
    ranks: { tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 4 },
  },
  'elicitation.awaiting': {},
  'elicitation.dismiss': { id: 'everything/auth-1' },
  'roots.list': {},
  'roots.add': { path: '/home/me/project', name: 'Project' },
  'roots.confirmTarget': { id: 'root-1' },
  'roots.rename': { id: 'root-1', name: 'Work' },
  'roots.remove': { id: 'root-1' },
  'roots.restore': { id: 'root-1' },
  'roots.setExposure': { server: 'everything', exposure: ['root-1'] },
  'roots.resetConsent': { server: 'everything', rootIds: ['root-1'] },
  'roots.browse': { path: '/home/me' },
  'roots.pickFolder': {},
  'prompts.list': {},
  'prompts.get': { server: 'everything', name: 'args-prompt', arguments: { city: 'Paris' } },
  'completion.complete': {
    server: 'everything',
    ref: { type: 'ref/prompt', name: 'completable-prompt' },
    argument: { name: 'department', value: 'E' },
  },
  'resources.list': { server: 'everything', cursor: '2' },
  'resources.templates': { server: 'everything' },
  'resources.read': { server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
  'resources.subscribe': { server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
  'resources.unsubscribe': { server: 'everything', uri: 'demo://resource/static/document/architecture.md' },
  'resources.subscriptions': { server: 'everything' },
  'configImport.locations': { projectFolder: '/home/me/project' },
  'configImport.preview': { source: { kind: 'text', format: 'cursor', text: '{"mcpServers": {}}' } },
  'configImport.apply': {
    source: { kind: 'location', id: 'claude-desktop' },
    servers: [{ sourceName: 'github', name: 'github' }],
    answers: { token: 'x' },
  },
  'configImport.export': {},
  'tasks.list': {},
  'tasks.cancel': { id: 'task-1' },
  'tasks.clear': {},
  'tasks.setWindowVisible': { visible: false },
  'tasks.serverSettings': {},
  'tasks.setServerSettings': { server: 'everything', optionalToolsAsTasks: false },
  'servers.instructionsSettings': {},
  'servers.setSendInstructions': { server: 'everything', sendInstructions: false },
  'servers.resultLimits': {},
  'servers.setResultLimit': { server: 'everything', limitTokens: 2_000 },
  'apps.sandbox': {},
  'apps.resource': { server: 'basic', uri: 'ui://get-time/mcp-app.html' },
  'apps.list': { server: 'basic' },
  'apps.callTool': {
    origin: { server: 'basic', conversationId: 'c1', toolUseId: 't1' },
    tool: 'get-time',
    arguments: {},
  },
  'apps.cancelCall': { instance: 'i1', callId: 'k1' },
  'apps.appGone': { instance: 'i1' },
  'apps.log': { origin: { server: 'basic' }, level: 'info', text: 'hello' },
  'apps.openExternal': { origin: { server: 'basic' }, url: 'https://example.com/' },
  'apps.setModelContext': {
    origin: { server: 'basic', conversationId: 'c1', toolUseId: 't1' },
    content: [{ type: 'text', text: 'x' }],
  },
  'apps.modelContext': { conversationId: 'c1' },
  'bundles.upload': { data: 'UEsFBg==' },
  'bundles.inspect': { source: { kind: 'path', path: '/tmp/x.mcpb' } },
  'bundles.review': { stageId: 'a'.repeat(32), name: 'bundle', values: { key: 'value' } },
  'bundles.install': { stageId: 'a'.repeat(32), name: 'bundle' },
  'bundles.discard': { stageId: 'a'.repeat(32) },
  'bundles.uninstall': { name: 'bundle' },
  'skills.list': {},
  'skills.attach': { server: 'docs', uri: 'skill://pdf-processing/SKILL.md' },
  'sandbox.support': {},
  'sandbox.serverSettings': {},
  'sandbox.setServerSettings': {
    server: 'everything',
    enabled: true,
    allowedFolders: ['/srv/data'],
    allowedDomains: ['api.example.com', '*.npmjs.org', '127.0.0.1:8080'],
  },
  'sandbox.policy': { server: 'everything' },
  'sandbox.allow': { server: 'everything', domain: 'api.example.com' },
  'sandbox.denials': { server: 'everything' },
  'app.activity': {},
  'events.catalog': {},
  'events.subscribe': {
    server: 'ci',
    event: 'build.finished',
    arguments: { project: 'berth' },
    action: 'conversation',
    prompt: 'Summarise {{event}}',
  },
  'events.setPaused': { id: 'sub-1', paused: true },
  'events.unsubscribe': { id: 'sub-1' },
  'events.inbox': {},
  'events.markRead': { ids: ['entry-1'] },
  'events.removeFromInbox': {},
  'events.restoreToInbox': { ids: ['entry-1'] },
  'providers.checkKey': { id: 'openai' },
  'chat.setParams': { id: 'c-1', systemPrompt: 'Answer in verse.', temperature: 0.4, maxTokens: null },
};

interface Recorder {
  handlers: Handlers;
  calls: Array<{ method: MethodName; input: unknown }>;
}

/** Handlers that echo their parsed input, so tests can see what reached them. */
function recordingHandlers(override: Partial<Record<MethodName, (input: unknown) => Promise<unknown>>> = {}): Recorder {
  const calls: Recorder['calls'] = [];
  const entries = METHOD_NAMES.map((method) => [
    method,
    async (input: unknown) => {
      calls.push({ method, input });
      const custom = override[method];
      return custom ? custom(input) : { echoed: input };
    },
  ]);
  return { handlers: Object.fromEntries(entries) as Handlers, calls };
}

function expectFailure(result: Result<unknown>, code: Failure['code']): Failure {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('expected a failure');
  expect(result.code).toBe(code);
  expect(result.message.length).toBeGreaterThan(0);
  return result;
}

/** A value of a different JSON type than `value`. */
function wrongTypeFor(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'not an array';
  return 'not an object';
}

describe('router', () => {
  it('has a valid input for every contract method', () => {
    expect(Object.keys(VALID_INPUTS).sort()).toEqual([...METHOD_NAMES].sort());
  });

  describe.each(METHOD_NAMES)('%s', (method) => {
    const valid = VALID_INPUTS[method];

    it('passes valid input to its handler and wraps the value', async () => {
      const { handlers, calls } = recordingHandlers();
      const result = await createRouter(handlers).dispatch(method, valid);
      expect(result.ok).toBe(true);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.method).toBe(method);
    });

    it.each([
      ['null', null],
      ['a number', 42],
      ['a string', 'hello'],
      ['an array', [valid]],
      ['undefined', undefined],
      ['true', true],
    ])('refuses %s as input', async (_label, input) => {
      const { handlers, calls } = recordingHandlers();
      expectFailure(await createRouter(handlers).dispatch(method, input), 'INVALID_INPUT');
      expect(calls).toHaveLength(0);
    });

    it('refuses an unknown extra key and names it', async () => {
      const { handlers, calls } = recordingHandlers();
      const failure = expectFailure(
        await createRouter(handlers).dispatch(method, { ...valid, surprise: 1 }),
        'INVALID_INPUT',
      );
      expect(failure.path).toBe('surprise');
      expect(failure.message).toContain('surprise');
      expect(failure.message).toContain(method);
      expect(calls).toHaveLength(0);
    });

    it('refuses a __proto__ key without polluting anything', async () => {
      const { handlers, calls } = recordingHandlers();
      const input: unknown = JSON.parse(
        `{"__proto__":{"polluted":true},${JSON.stringify(valid).slice(1)}`.replace(',}', '}'),
      );
      expectFailure(await createRouter(handlers).dispatch(method, input), 'INVALID_INPUT');
      expect(calls).toHaveLength(0);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    for (const key of Object.keys(valid)) {
      it(`refuses a wrong type for "${key}" and names the field`, async () => {
        const { handlers, calls } = recordingHandlers();
        const input = { ...valid, [key]: wrongTypeFor(valid[key]) };
        const failure = expectFailure(await createRouter(handlers).dispatch(method, input), 'INVALID_INPUT');
        expect(failure.path?.startsWith(key)).toBe(true);
        expect(failure.message).toContain(key);
        expect(calls).toHaveLength(0);
      });
    }
  });

  it('names nested fields in the path and message', async () => {
    const { handlers } = recordingHandlers();
    const router = createRouter(handlers);
    const emptyCommand = expectFailure(
      await router.dispatch('servers.add', { name: 'a', config: { command: ' ' } }),
      'INVALID_INPUT',
    );
    expect(emptyCommand.path).toBe('config.command');
    expect(emptyCommand.message).toContain('Enter the command');

    const badArg = expectFailure(
      await router.dispatch('servers.add', { name: 'a', config: { command: 'x', args: ['ok', 5] } }),
      'INVALID_INPUT',
    );
    expect(badArg.path).toBe('config.args[1]');

    const badEnvKey = expectFailure(
      await router.dispatch('servers.add', { name: 'a', config: { command: 'x', env: { '1-bad': 'v' } } }),
      'INVALID_INPUT',
    );
    expect(badEnvKey.path).toBe('config.env["1-bad"]');
    expect(badEnvKey.message).toContain('Environment variable names');
  });

  it("codes the first problem of a refused input by its kind, with the field's key and its limit", async () => {
    const router = createRouter(recordingHandlers().handlers);
    const refused = async (method: MethodName, input: unknown) =>
      expectFailure(await router.dispatch(method, input), 'INVALID_INPUT');

    const tooLong = await refused('config.saveText', { text: 'x'.repeat(5_000_001) });
    expect(tooLong.message).toMatch(/^Invalid input for config\.saveText: text: Too big/);
    expect(tooLong.hostMessage).toEqual({ code: 'bridge-errors.too-long', params: { field: 'text', max: 5_000_000 } });
    expect((await refused('servers.start', {})).hostMessage).toEqual({
      code: 'bridge-errors.missing',
      params: { field: 'name' },
    });
    expect((await refused('servers.setLogLevel', { name: 'a', level: 'loud' })).hostMessage).toEqual({
      code: 'bridge-errors.not-a-choice',
      params: { field: 'level' },
    });
    expect((await refused('servers.start', { name: 'a', surprise: 1 })).hostMessage?.code).toBe(
      'bridge-errors.unknown-field',
    );
    expect(
      (await refused('servers.add', { name: 'a', config: { command: 'x', args: ['ok', 5] } })).hostMessage,
    ).toEqual({ code: 'bridge-errors.not-valid', params: { field: 'args' } });
    expect((await refused('chat.send', { id: 'c-1', text: '', model: 'm' })).hostMessage).toEqual({
      code: 'bridge-errors.schema-words',
      params: { field: 'text', detail: 'Write a message first.' },
    });
    const badEnvKey = await refused('servers.add', { name: 'a', config: { command: 'x', env: { '1-bad': 'v' } } });
    expect(badEnvKey.hostMessage?.code).toBe('bridge-errors.schema-words');
    expect(badEnvKey.hostMessage?.params?.detail).toMatch(/^Environment variable names/);
    expect(
      (await refused('chat.setToolSearchThresholds', { countAbove: 128, shareAbove: 'lots' })).hostMessage,
    ).toEqual({ code: 'bridge-errors.not-valid', params: { field: 'shareAbove' } });
  });

  it("codes an unknown method and a handler's bug beside the English", async () => {
    const router = createRouter(
      recordingHandlers({
        'servers.list': async () => {
          throw new Error('boom');
        },
      }).handlers,
    );
    expect(await router.dispatch('servers.explode', {})).toEqual({
      ok: false,
      code: 'UNKNOWN_METHOD',
      message: 'Unknown method "servers.explode"',
      hostMessage: { code: 'bridge-errors.unknown-method', params: { method: '"servers.explode"' } },
    });
    expect(await router.dispatch(null, {})).toMatchObject({
      message: 'Unknown method (null; the method name must be a string)',
      hostMessage: { code: 'bridge-errors.method-not-string', params: { type: 'null' } },
    });
    expect(await router.dispatch('servers.list', {})).toEqual({
      ok: false,
      code: 'INTERNAL',
      message: 'Berth hit a bug while handling servers.list: boom',
      hostMessage: { code: 'bridge-errors.bug', params: { method: 'servers.list', detail: 'boom' } },
    });
  });

  it('hands handlers the parsed input, defaults applied', async () => {
    const { handlers, calls } = recordingHandlers();
    await createRouter(handlers).dispatch('servers.add', { name: '  padded ', config: { command: 'node' } });
    expect(calls[0]?.input).toMatchObject({
      name: 'padded',
      config: { command: 'node', args: [], env: {}, enabled: true, secretEnv: [] },
    });
  });

  it.each([
    ['an unknown name', 'servers.explode'],
    ['a prototype key', '__proto__'],
    ['an inherited name', 'toString'],
    ['null', null],
    ['a number', 7],
    ['an array', ['servers.list']],
    ['an object', { method: 'servers.list' }],
    ['a huge string', 'x'.repeat(1_000_000)],
  ])('answers UNKNOWN_METHOD for %s', async (_label, method) => {
    const { handlers, calls } = recordingHandlers();
    const failure = expectFailure(await createRouter(handlers).dispatch(method, {}), 'UNKNOWN_METHOD');
    expect(failure.message.length).toBeLessThan(200);
    expect(calls).toHaveLength(0);
  });

  it('refuses a huge input string with a readable message', async () => {
    const { handlers } = recordingHandlers();
    const failure = expectFailure(
      await createRouter(handlers).dispatch('config.saveText', { text: 'x'.repeat(5_000_001) }),
      'INVALID_INPUT',
    );
    expect(failure.path).toBe('text');
  });

  it('turns a HostError into its code, message and path', async () => {
    const { handlers } = recordingHandlers({
      'servers.start': async () => {
        throw new HostError('NOT_FOUND', 'No server named "ghost"', 'name');
      },
    });
    const reported: unknown[] = [];
    const result = await createRouter(handlers, { onInternalError: (_m, error) => reported.push(error) }).dispatch(
      'servers.start',
      { name: 'ghost' },
    );
    expect(result).toEqual({ ok: false, code: 'NOT_FOUND', message: 'No server named "ghost"', path: 'name' });
    expect(reported).toHaveLength(0);
  });

  it("passes a coded HostError's host message on with the failure", async () => {
    const { handlers } = recordingHandlers({
      'servers.start': async () => {
        throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name: 'ghost' }), 'name');
      },
    });
    expect(await createRouter(handlers).dispatch('servers.start', { name: 'ghost' })).toEqual({
      ok: false,
      code: 'NOT_FOUND',
      message: 'No server named "ghost"',
      path: 'name',
      hostMessage: { code: 'server-errors.not-found', params: { name: 'ghost' } },
    });
  });

  it('turns any other throw into INTERNAL, keeps the message and reports it', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const { handlers } = recordingHandlers({
      'servers.list': async () => {
        throw bug;
      },
    });
    const reported: Array<{ method: string; error: unknown }> = [];
    const result = await createRouter(handlers, {
      onInternalError: (method, error) => reported.push({ method, error }),
    }).dispatch('servers.list', {});
    const failure = expectFailure(result, 'INTERNAL');
    expect(failure.message).toContain('cannot read properties of undefined');
    expect(reported).toEqual([{ method: 'servers.list', error: bug }]);
  });

  it('survives throws of odd values and a throwing reporter', async () => {
    const unprintable = Object.create(null) as object;
    const { handlers } = recordingHandlers({
      'servers.list': async () => {
        throw unprintable;
      },
      'config.status': async () => {
        throw undefined;
      },
    });
    const router = createRouter(handlers, {
      onInternalError: () => {
        throw new Error('reporter broke');
      },
    });
    const originalError = console.error;
    const stderr: unknown[][] = [];
    console.error = (...args: unknown[]) => stderr.push(args);
    try {
      expectFailure(await router.dispatch('servers.list', {}), 'INTERNAL');
      expectFailure(await router.dispatch('config.status', {}), 'INTERNAL');
    } finally {
      console.error = originalError;
    }
    expect(stderr).toHaveLength(2);
  });

  it('treats a HostError with a made-up code as a bug', async () => {
    const { handlers } = recordingHandlers({
      'servers.list': async () => {
        throw new HostError('NOPE' as 'INTERNAL', 'odd');
      },
    });
    expectFailure(
      await createRouter(handlers, { onInternalError: () => undefined }).dispatch('servers.list', {}),
      'INTERNAL',
    );
  });
});
