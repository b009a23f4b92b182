import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditEntrySchema, type ConsentPolicy } from '../../shared/domain/consent';
import { HostError } from '../../shared/result';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector, tempDir } from '../servers/test-support';
import { argumentsDigest } from './canonical-json';
import { ConsentBroker } from './consent-broker';
import { nextPrompt } from './consent-test-support';
import type { ToolCallConsentRequest } from './consent-broker';

const call = (overrides: Partial<ToolCallConsentRequest> = {}): ToolCallConsentRequest => ({
  conversationId: 'conv-1',
  server: 'files',
  tool: 'write_file',
  description: 'Write a file',
  annotations: { destructiveHint: true },
  input: { path: '/tmp/a.txt', content: 'hello' },
  serverIdentity: 'sha256:files-v1',
  ...overrides,
});

describe('ConsentBroker', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let logs: LogCollector;
  let pending: PendingRequests;
  let ids: number;
  const make = () =>
    new ConsentBroker({
      stateDir: dir.path,
      pending,
      logs,
      now: () => Date.UTC(2026, 4, 1, 12),
      newId: () => `p${++ids}`,
    });

  beforeEach(async () => {
    dir = await tempDir('berth-consent-');
    logs = new LogCollector();
    pending = new PendingRequests();
    ids = 0;
  });
  afterEach(() => dir.cleanup());

  /** Start a call, answer its prompt with `response`, return the verdict and the prompt. */
  async function decide(broker: ConsentBroker, response: unknown, request = call()) {
    const prompt = nextPrompt(pending);
    const verdict = broker.approveToolCall(request);
    const opened = await prompt;
    pending.answer(opened.id, response);
    return { verdict: await verdict, prompt: opened };
  }

  it('says in the prompt and the audit when an app asked, and remembers no conversation permission outside a conversation', async () => {
    const broker = make();
    const { prompt } = await decide(
      broker,
      { decision: 'allow-once' },
      call({ requestedBy: 'app', toolUseId: 'tu-1' }),
    );
    expect(prompt.payload.requestedBy).toBe('app');
    const { conversationId: _conversation, ...preview } = call({ requestedBy: 'app' });
    const { verdict, prompt: previewPrompt } = await decide(broker, { decision: 'allow-conversation' }, preview);
    expect(previewPrompt).not.toHaveProperty('conversationId');
    expect(verdict).toMatchObject({ allowed: true, decision: 'allow-conversation' });
    expect(verdict).not.toHaveProperty('policy');
    expect(broker.listPolicies()).toEqual([]);
    const audit = await broker.readAudit();
    expect(audit.entries.map((entry) => [entry.requestedBy, entry.conversationId])).toEqual([
      ['app', undefined],
      ['app', 'conv-1'],
    ]);
    await broker.close();
  });

  it('shows server, tool, description, untrusted annotations and the full arguments in the prompt', async () => {
    const { prompt } = await decide(make(), { decision: 'deny' }, call({ toolUseId: 'tu-9' }));
    expect(prompt).toMatchObject({ server: 'files', conversationId: 'conv-1', toolUseId: 'tu-9' });
    expect(prompt.payload).toEqual({
      server: 'files',
      serverTrusted: false,
      tool: 'write_file',
      description: 'Write a file',
      annotations: { destructiveHint: true },
      annotationsTrusted: false,
      arguments: { path: '/tmp/a.txt', content: 'hello' },
    });
  });

  it('gives the prompt the tool’s input schema, so the dialog can check edited arguments against it', async () => {
    const inputSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const { prompt } = await decide(make(), { decision: 'deny' }, call({ inputSchema }));
    expect(prompt.payload).toMatchObject({ inputSchema });
  });

  it('marks annotations trusted only when the server is trusted', async () => {
    const { prompt } = await decide(make(), { decision: 'deny' }, call({ serverTrusted: true }));
    expect(prompt.payload).toMatchObject({ serverTrusted: true, annotationsTrusted: true });
  });

  it('allow once: runs with the model arguments and asks again next time', async () => {
    const broker = make();
    const { verdict } = await decide(broker, { decision: 'allow-once' });
    expect(verdict).toEqual({
      allowed: true,
      decision: 'allow-once',
      arguments: call().input,
      edited: false,
      decidedBy: 'person',
    });
    expect(broker.listPolicies()).toEqual([]);
    await decide(broker, { decision: 'deny' });
  });

  it('allow once with edited arguments sends the edit and audits both digests', async () => {
    const broker = make();
    const edited = { path: '/tmp/b.txt', content: 'bye' };
    const { verdict } = await decide(broker, { decision: 'allow-once', arguments: edited });
    expect(verdict).toMatchObject({ allowed: true, arguments: edited, edited: true });
    const [entry] = (await broker.readAudit()).entries;
    expect(entry).toMatchObject({
      edited: true,
      argumentsDigest: argumentsDigest(call().input),
      sentArgumentsDigest: argumentsDigest(edited),
    });
  });

  it('an "edit" identical to the original (keys reordered) is not counted as edited', async () => {
    const { verdict } = await decide(make(), {
      decision: 'allow-once',
      arguments: { content: 'hello', path: '/tmp/a.txt' },
    });
    expect(verdict).toMatchObject({ allowed: true, edited: false });
  });

  it('deny returns the reason for the model and stores nothing', async () => {
    const broker = make();
    const { verdict } = await decide(broker, { decision: 'deny', reason: 'wrong folder' });
    expect(verdict).toEqual({ allowed: false, decision: 'deny', reason: 'wrong folder', decidedBy: 'person' });
    expect(broker.listPolicies()).toEqual([]);
  });

  it('allow for this conversation: same tool in the same conversation runs, other conversations and tools still ask', async () => {
    const broker = make();
    const { verdict } = await decide(broker, { decision: 'allow-conversation' });
    expect(verdict).toMatchObject({
      allowed: true,
      decision: 'allow-conversation',
      policy: { id: 'p1', scope: 'conversation', conversationId: 'conv-1' },
    });
    await expect(broker.approveToolCall(call({ input: { path: '/x' } }))).resolves.toMatchObject({
      allowed: true,
      decidedBy: 'policy:p1',
    });
    await decide(broker, { decision: 'deny' }, call({ conversationId: 'conv-2' }));
    await decide(broker, { decision: 'deny' }, call({ tool: 'read_file' }));
    // In memory only.
    expect(await readFile(join(dir.path, 'policies.json'), 'utf8').catch(() => 'none')).toBe('none');
    broker.forgetConversation('conv-1');
    expect(broker.listPolicies()).toEqual([]);
  });

  it('always allow this tool: persists across instances, in every conversation, not for other tools', async () => {
    await decide(make(), { decision: 'always-tool' });
    const again = make();
    await expect(again.approveToolCall(call({ conversationId: 'conv-7' }))).resolves.toMatchObject({
      allowed: true,
      decision: 'always-tool',
      decidedBy: 'policy:p1',
    });
    expect(again.listPolicies()).toEqual([
      { id: 'p1', scope: 'tool', server: 'files', tool: 'write_file', createdAt: Date.UTC(2026, 4, 1, 12) },
    ]);
    await decide(again, { decision: 'deny' }, call({ tool: 'delete_file' }));
  });

  it('always allow this server: every tool of the server, not other servers', async () => {
    const broker = make();
    await decide(broker, { decision: 'always-server' });
    await expect(broker.approveToolCall(call({ tool: 'delete_file' }))).resolves.toMatchObject({
      allowed: true,
      decidedBy: 'policy:p1',
    });
    await decide(broker, { decision: 'deny' }, call({ server: 'other' }));
  });

  it('precedence: the broadest matching policy decides (server, then tool, then conversation)', async () => {
    const broker = make();
    await decide(broker, { decision: 'allow-conversation' });
    await decide(broker, { decision: 'always-tool' }, call({ conversationId: 'conv-2' }));
    await expect(broker.approveToolCall(call())).resolves.toMatchObject({ decidedBy: 'policy:p2' });
    await decide(broker, { decision: 'always-server' }, call({ tool: 'other_tool' }));
    await expect(broker.approveToolCall(call())).resolves.toMatchObject({ decidedBy: 'policy:p3' });
    expect(broker.listPolicies().map((p) => p.scope)).toEqual(['server', 'tool', 'conversation']);
  });

  it('revoking a policy makes the next call ask again, persists, and tells listeners', async () => {
    const broker = make();
    const seen: ConsentPolicy[][] = [];
    broker.onPoliciesChange((list) => seen.push(list));
    await decide(broker, { decision: 'always-tool' });
    await broker.revokePolicy('p1');
    expect(seen.map((list) => list.length)).toEqual([1, 0]);
    expect(make().listPolicies()).toEqual([]);
    await decide(broker, { decision: 'deny' });
    await expect(broker.revokePolicy('p1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a policy chosen in one prompt also settles the other prompts it covers', async () => {
    const broker = make();
    const first = nextPrompt(pending);
    const a = broker.approveToolCall(call());
    const openedA = await first;
    const second = nextPrompt(pending);
    const b = broker.approveToolCall(call({ input: { path: '/tmp/other' } }));
    await second;
    pending.answer(openedA.id, { decision: 'always-tool' });
    await expect(a).resolves.toMatchObject({ allowed: true, decidedBy: 'person' });
    await expect(b).resolves.toMatchObject({
      allowed: true,
      decidedBy: 'policy:p1',
      arguments: { path: '/tmp/other' },
    });
    expect(pending.list()).toEqual([]);
  });

  it('closing the window or stopping the call denies, never hangs, and is audited as the host', async () => {
    const broker = make();
    const prompt = nextPrompt(pending);
    const verdict = broker.approveToolCall(call());
    await prompt;
    pending.withdrawAll('window closed');
    await expect(verdict).resolves.toEqual({
      allowed: false,
      decision: 'deny',
      reason: 'window closed',
      decidedBy: 'host',
    });

    const controller = new AbortController();
    const stopped = broker.approveToolCall(call({ signal: controller.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort('the turn was stopped');
    await expect(stopped).resolves.toMatchObject({ allowed: false, reason: 'the turn was stopped', decidedBy: 'host' });
    const { entries } = await broker.readAudit();
    expect(entries.map((e) => [e.decidedBy, e.note])).toEqual([
      ['host', 'the turn was stopped'],
      ['host', 'window closed'],
    ]);
  });

  it('writes every kind of decision as the same line the schema-checked append writes (keys in schema order, nothing extra)', async () => {
    const broker = make();
    await decide(broker, { decision: 'allow-once' });
    await decide(broker, { decision: 'allow-once', arguments: { path: '/tmp/b.txt', content: 'edited' } });
    await decide(broker, { decision: 'deny', reason: 'no' });
    await decide(broker, { decision: 'always-tool' });
    await broker.approveToolCall(call());
    const prompt = nextPrompt(pending);
    const withdrawn = broker.approveToolCall(call({ tool: 'other' }));
    await prompt;
    pending.withdrawAll('window closed');
    await withdrawn;
    await broker.close();
    const lines = (await readFile(join(dir.path, 'audit.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line).toBe(JSON.stringify(AuditEntrySchema.parse(JSON.parse(line))));
    expect(lines.map((line) => Object.keys(JSON.parse(line) as object).join(','))).toEqual([
      'time,server,tool,conversationId,argumentsDigest,decision,decidedBy,edited',
      'time,server,tool,conversationId,argumentsDigest,sentArgumentsDigest,decision,decidedBy,edited',
      'time,server,tool,conversationId,argumentsDigest,decision,decidedBy,edited',
      'time,server,tool,conversationId,argumentsDigest,decision,decidedBy,edited',
      'time,server,tool,conversationId,argumentsDigest,decision,decidedBy,edited',
      'time,server,tool,conversationId,argumentsDigest,decision,decidedBy,edited,note',
    ]);
  });

  it('writes one audit line per decision with a digest, never the arguments', async () => {
    const broker = make();
    await decide(broker, { decision: 'always-tool' });
    await broker.approveToolCall(call());
    await decide(broker, { decision: 'deny', reason: 'secret reason' }, call({ tool: 'other' }));
    const text = await readFile(join(dir.path, 'audit.jsonl'), 'utf8');
    expect(text).not.toContain('hello');
    expect(text).not.toContain('/tmp/a.txt');
    expect(text).not.toContain('secret reason');
    expect(text.trim().split('\n')).toHaveLength(3);
    const { entries, unreadableLines } = await broker.readAudit({ limit: 2 });
    expect(unreadableLines).toBe(0);
    expect(entries).toEqual([
      {
        time: '2026-05-01T12:00:00.000Z',
        server: 'files',
        tool: 'other',
        conversationId: 'conv-1',
        argumentsDigest: argumentsDigest(call().input),
        decision: 'deny',
        decidedBy: 'person',
        edited: false,
      },
      expect.objectContaining({ tool: 'write_file', decision: 'always-tool', decidedBy: 'policy:p1' }),
    ]);
    expect(entries[0]?.argumentsDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('moves a corrupt policies file aside with a clear message and asks again', async () => {
    await writeFile(join(dir.path, 'policies.json'), '{ "version": 1, "policies": [ { "id": ');
    const broker = make();
    await decide(broker, { decision: 'deny' });
    const files = await readdir(dir.path);
    expect(files.some((f) => f.startsWith('policies.json.corrupt-'))).toBe(true);
    expect(broker.loadProblem).toMatch(
      /policies\.json is corrupt \(not valid JSON .*\); moved it to .*policies\.json\.corrupt-/,
    );
    expect(logs.texts('', 'host').join('\n')).toMatch(/consent policies: .*corrupt/);
    // The next "always" is saved into a fresh file, the old content stays aside.
    await decide(broker, { decision: 'always-server' });
    expect(JSON.parse(await readFile(join(dir.path, 'policies.json'), 'utf8'))).toMatchObject({
      version: 2,
      policies: [{ scope: 'server' }],
    });
  });

  it('treats a policies file of the wrong shape as corrupt too', async () => {
    await writeFile(
      join(dir.path, 'policies.json'),
      JSON.stringify({
        version: 1,
        policies: [{ id: 'x', scope: 'conversation', server: 's', tool: 't', conversationId: 'c', createdAt: 1 }],
      }),
    );
    const broker = make();
    await broker.load();
    expect(broker.listPolicies()).toEqual([]);
    expect(broker.loadProblem).toMatch(/conversation policies are never stored/);
  });

  it('refuses arguments that are not a JSON object', async () => {
    await expect(
      make().approveToolCall(call({ input: [1, 2] as unknown as Record<string, unknown> })),
    ).rejects.toBeInstanceOf(HostError);
  });
});
