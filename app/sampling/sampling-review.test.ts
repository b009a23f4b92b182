import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingKind, PendingRequestOf } from '../../shared/domain/pending';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import type { ConfiguredModel } from '../settings/model-table';
import { candidateOf, fixedSamplingModels } from './candidate-models';
import { DECLINED_ALL_REASON, SamplingReview } from './sampling-review';
import type { GeneratedMessage, SamplingReviewOptions } from './sampling-review';

const models: ConfiguredModel[] = [
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', tier: 'fast', costRank: 1, speedRank: 1, intelligenceRank: 3 },
  {
    id: 'claude-sonnet-4-5',
    label: 'Claude Sonnet 4.5',
    tier: 'balanced',
    costRank: 2,
    speedRank: 2,
    intelligenceRank: 2,
  },
  { id: 'claude-opus-4-1', label: 'Claude Opus 4.1', tier: 'smart', costRank: 3, speedRank: 3, intelligenceRank: 1 },
];

const params: CreateMessageRequestParams = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'Write a haiku about ships' } },
    {
      role: 'user',
      content: [
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' },
      ],
    },
  ],
  systemPrompt: 'You are a poet.',
  includeContext: 'thisServer',
  maxTokens: 200,
  temperature: 0.7,
  stopSequences: ['END'],
  modelPreferences: { hints: [{ name: 'haiku' }], speedPriority: 0.8 },
  _meta: { trace: 'x' },
};

interface Call {
  request: CreateMessageRequestParams;
  model: string;
  signal: AbortSignal;
}

/** Resolves with the next pending request of `kind`. */
function next<K extends PendingKind>(pending: PendingRequests, kind: K): Promise<PendingRequestOf<K>> {
  const open = pending.list().find((r) => r.kind === kind);
  if (open !== undefined) return Promise.resolve(open as PendingRequestOf<K>);
  return new Promise((resolve) => {
    const stop = pending.onChange(({ change }) => {
      if (change.type === 'opened' && change.request.kind === kind) {
        stop();
        resolve(change.request as PendingRequestOf<K>);
      }
    });
  });
}

async function expectRejected(promise: Promise<unknown>, reason?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  // The reason is in the message too: that is what servers show.
  expect(error).toMatchObject({
    code: -1,
    message: reason ? `User rejected sampling request: ${reason}` : 'User rejected sampling request',
  });
  if (reason !== undefined) expect((error as ProtocolError).data).toEqual({ reason });
}

describe('SamplingReview', () => {
  let pending: PendingRequests;
  let logs: LogCollector;
  let calls: Call[];
  let answer: GeneratedMessage | Error;
  let now: number;

  const make = (overrides: Partial<SamplingReviewOptions> = {}) =>
    new SamplingReview({
      pending,
      logs,
      models: fixedSamplingModels(models.map(candidateOf), 'claude-sonnet-4-5'),
      generate: async (request, model, signal) => {
        calls.push({ request, model, signal });
        if (answer instanceof Error) throw answer;
        return answer;
      },
      rateLimit: { capacity: 10, windowMs: 60_000, now: () => now },
      ...overrides,
    });

  beforeEach(() => {
    pending = new PendingRequests();
    logs = new LogCollector();
    calls = [];
    answer = { content: { type: 'text', text: 'Hulls creak in the dark' }, stopReason: 'endTurn' };
    now = 0;
  });

  it('shows the full request and the chosen model, sends the edited request, and returns the edited answer', async () => {
    const review = make();
    const result = review.handle('poet', params, { conversationId: 'c1', toolUseId: 'tu1' });

    const first = await next(pending, 'sampling');
    expect(first).toMatchObject({ server: 'poet', conversationId: 'c1', toolUseId: 'tu1' });
    const { _meta, ...shown } = params;
    void _meta;
    expect(first.payload.request).toEqual(shown);
    expect(first.payload.model).toEqual({ id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', provider: 'Anthropic' });
    expect(first.payload.explanation).toBe('Matched the server’s hint “haiku”.');
    // The same reason as facts, which the review words in the person's language.
    expect(first.payload.explanationChoice).toEqual({ kind: 'hint-only', reach: { via: 'name', hint: 'haiku' } });
    expect(first.payload.models.map((m) => m.id)).toEqual(models.map((m) => m.id));
    const editedMessages = [
      { role: 'user' as const, content: { type: 'text' as const, text: 'Write a haiku about harbours' } },
    ];
    pending.answer(first.id, { decision: 'approve', messages: editedMessages, systemPrompt: 'Be brief.' });

    const second = await next(pending, 'sampling-answer');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.model).toBe('claude-haiku-4-5');
    expect(calls[0]?.request).toMatchObject({
      messages: editedMessages,
      systemPrompt: 'Be brief.',
      maxTokens: 200,
      temperature: 0.7,
      stopSequences: ['END'],
    });
    expect(second.payload.request.messages).toEqual(editedMessages);
    expect(second.payload.result).toEqual({
      content: { type: 'text', text: 'Hulls creak in the dark' },
      stopReason: 'endTurn',
    });
    pending.answer(second.id, { decision: 'approve', content: { type: 'text', text: 'Masts sleep in the bay' } });

    await expect(result).resolves.toEqual({
      model: 'claude-haiku-4-5',
      role: 'assistant',
      content: { type: 'text', text: 'Masts sleep in the bay' },
      stopReason: 'endTurn',
    });
    expect(logs.texts('poet', 'host')).toContain('sampling answered with claude-haiku-4-5 after review');
  });

  it('returns the generated answer unchanged when approved without edits', async () => {
    const result = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await expect(result).resolves.toMatchObject({ content: { type: 'text', text: 'Hulls creak in the dark' } });
    expect(calls[0]?.request.messages).toEqual(params.messages);
  });

  it('the person may change the temperature, or clear it for the model’s default', async () => {
    const changed = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve', temperature: 0.2 });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await changed;
    expect(calls[0]?.request.temperature).toBe(0.2);

    const cleared = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve', temperature: null });
    const answer = await next(pending, 'sampling-answer');
    expect('temperature' in (calls[1]?.request ?? {})).toBe(false);
    expect(answer.payload.request.temperature).toBeUndefined();
    pending.answer(answer.id, { decision: 'approve' });
    await cleared;
    expect(params.temperature).toBe(0.7);
  });

  it('reject before sending: error -1, the model is never called', async () => {
    const result = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'reject', reason: 'no thanks' });
    await expectRejected(result, 'no thanks');
    expect(calls).toEqual([]);
  });

  it('a reason on several lines, or a very long one, reaches the message as one line of at most 500 characters', async () => {
    const reason = `Not now.\n\nToo expensive ${'x'.repeat(600)}`;
    const result = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'reject', reason });
    const error = (await result.catch((e: unknown) => e)) as ProtocolError;
    expect(error.message).toBe(
      `User rejected sampling request: ${`Not now. Too expensive ${'x'.repeat(600)}`.slice(0, 500)}`,
    );
    expect(error.data).toEqual({ reason });
  });

  it('reject the answer: error -1 after the model ran', async () => {
    const result = make().handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'reject' });
    await expectRejected(result);
    expect(calls).toHaveLength(1);
  });

  it('a closed window or a cancelled request rejects, never hangs', async () => {
    const review = make();
    const closed = review.handle('poet', params);
    await next(pending, 'sampling');
    pending.withdrawAll('window closed');
    await expectRejected(closed, 'window closed');

    const controller = new AbortController();
    const cancelled = review.handle('poet', params, { signal: controller.signal });
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    await next(pending, 'sampling-answer');
    controller.abort('server cancelled');
    await expectRejected(cancelled, 'server cancelled');
    expect(pending.list()).toEqual([]);
  });

  it('aborts the model call when the server cancels during generation', async () => {
    const controller = new AbortController();
    const review = make({
      generate: (_request, _model, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted by signal')));
          controller.abort('stop');
        }),
    });
    const result = review.handle('poet', params, { signal: controller.signal });
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    await expectRejected(result, 'the server cancelled the request');
  });

  it("policy 'never' refuses without asking; 'allow-session' answers without asking, with the default model", async () => {
    const review = make({ policies: { quiet: 'never' } });
    await expectRejected(review.handle('quiet', params), 'sampling is turned off for this server in Berth');
    expect(pending.counts().total).toBe(0);

    review.setPolicy('trusted', 'allow-session');
    // Unreviewed, the server's hint ('haiku') does not choose the model: the person's default does.
    await expect(review.handle('trusted', params)).resolves.toMatchObject({
      model: 'claude-sonnet-4-5',
      content: { text: 'Hulls creak in the dark' },
    });
    expect(review.policies()).toEqual({ quiet: 'never', trusted: 'allow-session' });
    review.forgetServer('trusted');
    expect(review.policyFor('trusted')).toBe('ask');
  });

  it('"allow for this session" in the review stops later prompts from that server', async () => {
    const review = make();
    const changes: string[] = [];
    review.onPolicyChange((server, policy) => changes.push(`${server}:${policy}`));
    const first = review.handle('poet', params);
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve', allowForSession: true });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await first;
    await expect(review.handle('poet', params)).resolves.toMatchObject({ role: 'assistant' });
    expect(changes).toEqual(['poet:allow-session']);
  });

  it('"Decline all" rejects every waiting review and answer of one server, leaves others, and may refuse the rest of the session (through a disconnect, not a removal)', async () => {
    const review = make();
    const flood = Array.from({ length: 4 }, () => review.handle('flood', params));
    const other = review.handle('calm', params);
    // One of the flood's requests is past its review, its answer waiting.
    pending.answer((await next(pending, 'sampling')).id, { decision: 'approve' });
    await next(pending, 'sampling-answer');
    expect(pending.list().filter((r) => r.server === 'flood')).toHaveLength(4);

    expect(review.declineAll('flood', true)).toBe(4);
    for (const request of flood) await expectRejected(request, DECLINED_ALL_REASON);
    expect(pending.list().map((r) => r.server)).toEqual(['calm']);
    expect(review.policies()).toEqual({ flood: 'refuse-session' });
    await expectRejected(
      review.handle('flood', params),
      'sampling is turned off for this server in Berth for this session',
    );
    expect(logs.texts('flood', 'host')).toContain(
      'the person declined 4 waiting sampling requests and refused the rest of this session',
    );

    // Without the refusal, a later request is asked about again; a removed server's refusal is forgotten.
    expect(review.declineAll('calm', false)).toBe(1);
    await expectRejected(other, DECLINED_ALL_REASON);
    expect(review.policyFor('calm')).toBe('ask');
    review.forgetServer('flood');
    expect(review.policyFor('flood')).toBe('refuse-session');
    review.forgetServer('flood', true);
    expect(review.policyFor('flood')).toBe('ask');
  });

  it('lets the person pick another configured model, and refuses an unknown one', async () => {
    const result = make().handle('poet', params);
    const prompt = await next(pending, 'sampling');
    expect(() => pending.answer(prompt.id, { decision: 'approve', model: 'gpt-5' })).toThrow(
      /model 'gpt-5' is not one of the models offered for this request/,
    );
    expect(() => pending.answer(prompt.id, { decision: 'approve', model: 'gpt-5' })).toThrow(
      expect.objectContaining({
        hostMessage: { code: 'pending-errors.model-not-offered', params: { model: 'gpt-5' } },
      }),
    );
    pending.answer(prompt.id, { decision: 'approve', model: 'claude-opus-4-1' });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await expect(result).resolves.toMatchObject({ model: 'claude-opus-4-1' });
    expect(calls[0]?.model).toBe('claude-opus-4-1');
  });

  it('refuses edits that are not valid MCP content', async () => {
    const result = make().handle('poet', params);
    const prompt = await next(pending, 'sampling');
    const badToolResult = [
      { role: 'user', content: { type: 'tool_result', toolUseId: 't', content: [{ type: 'weird' }] } },
    ];
    expect(() => pending.answer(prompt.id, { decision: 'approve', messages: badToolResult })).toThrow(
      /message 1 is not a valid MCP sampling message/,
    );
    pending.answer(prompt.id, { decision: 'approve' });
    const answerPrompt = await next(pending, 'sampling-answer');
    expect(() =>
      pending.answer(answerPrompt.id, {
        decision: 'approve',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toThrow(/must be one text, image or audio block/);
    pending.answer(answerPrompt.id, { decision: 'approve', content: { type: 'text', text: 'ok' } });
    await expect(result).resolves.toMatchObject({ content: { type: 'text', text: 'ok' } });
  });

  it('rate-limits per server with a clear error, refilling over time', async () => {
    const review = make({
      policies: { busy: 'allow-session', other: 'allow-session' },
      rateLimit: { capacity: 2, windowMs: 60_000, now: () => now },
    });
    await review.handle('busy', params);
    await review.handle('busy', params);
    const error = await review.handle('busy', params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32000,
      message: "Sampling rate limit: server 'busy' may send 2 sampling requests per 60 s; try again in 30 s",
    });
    await expect(review.handle('other', params)).resolves.toMatchObject({ role: 'assistant' });
    now += 30_000;
    await expect(review.handle('busy', params)).resolves.toMatchObject({ role: 'assistant' });
    expect(logs.texts('busy', 'host').some((t) => t.startsWith('Sampling rate limit'))).toBe(true);
  });

  it('a failing model call becomes an InternalError with the reason, and is logged', async () => {
    answer = new Error('401 invalid x-api-key');
    const result = make({ policies: { poet: 'allow-session' } }).handle('poet', params);
    await expect(result).rejects.toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: 'The model request failed: 401 invalid x-api-key',
    });
    expect(logs.texts('poet', 'host')).toContain('sampling: the model call failed: 401 invalid x-api-key');
  });

  it('refuses a generated answer of the wrong shape rather than sending it', async () => {
    answer = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    await expect(make({ policies: { poet: 'allow-session' } }).handle('poet', params)).rejects.toMatchObject({
      code: ProtocolErrorCode.InternalError,
      message: expect.stringContaining('one text, image or audio block'),
    });
  });

  describe('tool use inside sampling', () => {
    const withTools: CreateMessageRequestParams = {
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the weather?' } }],
      maxTokens: 100,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      toolChoice: { mode: 'auto' },
    };

    it('is refused with InvalidParams unless enabled', async () => {
      await expect(make().handle('poet', withTools)).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('tool use'),
      });
      expect(pending.counts().total).toBe(0);
    });

    it('passes tools to generate and returns tool_use content when enabled', async () => {
      answer = {
        content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Oslo' } }],
        stopReason: 'toolUse',
      };
      const result = make({ supportsTools: true }).handle('poet', withTools);
      const prompt = await next(pending, 'sampling');
      expect(prompt.payload.request.tools?.[0]?.name).toBe('get_weather');
      expect(prompt.payload.request.toolChoice).toEqual({ mode: 'auto' });
      pending.answer(prompt.id, { decision: 'approve' });
      const answerPrompt = await next(pending, 'sampling-answer');
      expect(answerPrompt.payload.result.stopReason).toBe('toolUse');
      pending.answer(answerPrompt.id, {
        decision: 'approve',
        content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Bergen' } }],
      });
      await expect(result).resolves.toEqual({
        model: 'claude-sonnet-4-5',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Bergen' } }],
        stopReason: 'toolUse',
      });
      expect(calls[0]?.request.tools).toEqual(withTools.tools);
    });
  });
});
