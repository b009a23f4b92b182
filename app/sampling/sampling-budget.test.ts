import { ProtocolError } from '@modelcontextprotocol/client';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PendingKind, PendingRequestOf } from '../../shared/domain/pending';
import type { SamplingLimits, TokenUsage } from '../../shared/domain/sampling-limits';
import { PendingRequests } from '../pending/pending-requests';
import { LogCollector } from '../servers/test-support';
import type { ConfiguredModel } from '../settings/model-table';
import { SamplingBudget } from './sampling-budget';
import type { BudgetRefusal } from './sampling-budget';
import { candidateOf, fixedSamplingModels } from './candidate-models';
import { SamplingReview } from './sampling-review';

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

/** What a greedy server sends: the dearest model, and 100,000 max tokens. */
const greedy: CreateMessageRequestParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Write an epic' } }],
  maxTokens: 100_000,
  modelPreferences: { hints: [{ name: 'opus' }], intelligencePriority: 1 },
};

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

describe('SamplingBudget', () => {
  const limits = (own: SamplingLimits) => new SamplingBudget({ limits: () => ({ limits: own, custom: true }) });

  it('proposes the server value under the cap, the cap above it, and what is left of the budget when that is less', () => {
    const budget = limits({ maxTokens: 1_000, sessionBudget: 5_000 });
    expect(budget.plan('s', 300)).toMatchObject({ ok: true, plan: { requested: 300, proposed: 300, used: 0 } });
    expect(budget.plan('s', 300)).not.toHaveProperty('plan.limitedBy');
    expect(budget.plan('s', 100_000)).toMatchObject({
      ok: true,
      plan: { requested: 100_000, proposed: 1_000, limitedBy: 'cap' },
    });
    const held = budget.reserve('s', 1_000);
    if (!held.ok) throw new Error('reserve refused');
    budget.settle(held.reservation, { inputTokens: 3_500, outputTokens: 900 });
    expect(budget.usage('s')).toMatchObject({ used: 4_400, inFlight: 0, requests: 1 });
    expect(budget.plan('s', 100_000)).toMatchObject({
      ok: true,
      plan: { proposed: 600, limitedBy: 'budget', used: 4_400 },
    });
  });

  it('holds the max tokens of calls in flight, so concurrent requests cannot overspend together', () => {
    const budget = limits({ maxTokens: 4_000, sessionBudget: 6_000 });
    const first = budget.reserve('s', 4_000);
    const second = budget.reserve('s', 4_000);
    expect(first).toMatchObject({ ok: true, reservation: { maxTokens: 4_000 } });
    expect(second).toMatchObject({ ok: true, reservation: { maxTokens: 2_000 } });
    const third = budget.reserve('s', 4_000);
    expect(third).toMatchObject({ ok: false, message: expect.stringContaining('Sampling budget fully held') });
    if (!first.ok) throw new Error('unreachable');
    budget.release(first.reservation);
    expect(budget.usage('s')).toMatchObject({ used: 0, inFlight: 2_000, refused: 1 });
  });

  it('refuses once the budget is spent, tells the listeners, and counts again from zero after a reset', () => {
    const budget = limits({ maxTokens: 1_000, sessionBudget: 1_500 });
    const refusals: Array<BudgetRefusal & { server: string }> = [];
    budget.onRefusal((refusal) => refusals.push(refusal));
    const held = budget.reserve('s', 1_000);
    if (!held.ok) throw new Error('reserve refused');
    budget.settle(held.reservation, { inputTokens: 700, outputTokens: 900 });
    const refused = budget.plan('s', 10);
    expect(refused).toEqual({
      ok: false,
      message:
        "Sampling budget exhausted: server 's' has used 1,600 of its 1,500-token sampling budget for this Berth session. The person can raise or reset it in Berth (the server's Overview).",
      usage: expect.objectContaining({ used: 1_600, refused: 1 }),
    });
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ server: 's', usage: { used: 1_600 } });
    expect(budget.reset('s')).toMatchObject({ used: 0, requests: 0, refused: 0 });
    expect(budget.plan('s', 10)).toMatchObject({ ok: true, plan: { proposed: 10 } });
  });

  it('counts the reserved max tokens when the model reports no usage, and announces every change', () => {
    const budget = limits({ maxTokens: 1_000, sessionBudget: 10_000 });
    const seen: number[] = [];
    budget.onChange((usage) => seen.push(usage.used));
    const held = budget.reserve('s', 800);
    if (!held.ok) throw new Error('reserve refused');
    expect(budget.settle(held.reservation, undefined)).toBe(800);
    expect(seen).toEqual([0, 800]);
    budget.forget('s');
    expect(budget.usage('s').used).toBe(0);
    expect(budget.list()).toEqual([]);
  });
});

describe('SamplingReview within the cap and the budget', () => {
  let pending: PendingRequests;
  let logs: LogCollector;
  let calls: Array<{ maxTokens: number; model: string }>;
  let usage: TokenUsage | undefined;
  let budget: SamplingBudget;

  const make = (policies: Record<string, 'allow-session'> = {}) =>
    new SamplingReview({
      pending,
      logs,
      models: fixedSamplingModels(models.map(candidateOf), 'claude-sonnet-4-5'),
      generate: async (request, model) => {
        calls.push({ maxTokens: request.maxTokens, model });
        return {
          content: { type: 'text', text: 'Sing, muse' },
          stopReason: 'endTurn',
          ...(usage !== undefined ? { usage } : {}),
        };
      },
      budget,
      policies,
    });

  beforeEach(() => {
    pending = new PendingRequests();
    logs = new LogCollector();
    calls = [];
    usage = { inputTokens: 1_000, outputTokens: 3_000 };
    budget = new SamplingBudget({
      limits: () => ({ limits: { maxTokens: 4_096, sessionBudget: 10_000 }, custom: false }),
    });
  });

  it('caps max tokens, showing the requested and the capped value in the review', async () => {
    const result = make().handle('greedy', greedy);
    const review = await next(pending, 'sampling');
    expect(review.payload.request.maxTokens).toBe(100_000);
    expect(review.payload.tokens).toEqual({
      requested: 100_000,
      proposed: 4_096,
      limitedBy: 'cap',
      limits: { maxTokens: 4_096, sessionBudget: 10_000 },
      used: 0,
    });
    pending.answer(review.id, { decision: 'approve' });
    const answer = await next(pending, 'sampling-answer');
    expect(answer.payload.request.maxTokens).toBe(4_096);
    expect(answer.payload.result.usage).toEqual({ inputTokens: 1_000, outputTokens: 3_000 });
    pending.answer(answer.id, { decision: 'approve' });
    await result;
    expect(calls).toEqual([{ maxTokens: 4_096, model: 'claude-opus-4-1' }]);
  });

  it('sends the max tokens the person set in the review, never more than the server asked for', async () => {
    const result = make().handle('greedy', { ...greedy, maxTokens: 5_000 });
    const review = await next(pending, 'sampling');
    expect(() => pending.answer(review.id, { decision: 'approve', maxTokens: 6_000 })).toThrow(
      /at most the 5,000 the server asked for/,
    );
    pending.answer(review.id, { decision: 'approve', maxTokens: 4_500 });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await result;
    expect(calls[0]?.maxTokens).toBe(4_500);
  });

  it('counts the reported input + output tokens, lowers the last request to what is left, then refuses with a clear error', async () => {
    const review = make({ greedy: 'allow-session' });
    const refusals: string[] = [];
    budget.onRefusal(({ server, message }) => refusals.push(`${server}: ${message}`));
    await review.handle('greedy', greedy);
    await review.handle('greedy', greedy);
    expect(budget.usage('greedy')).toMatchObject({ used: 8_000, requests: 2 });
    await review.handle('greedy', greedy);
    expect(calls.map((c) => c.maxTokens)).toEqual([4_096, 4_096, 2_000]);
    expect(budget.usage('greedy').used).toBe(12_000);

    const error = await review.handle('greedy', greedy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(
        /^Sampling budget exhausted: server 'greedy' has used 12,000 of its 10,000-token sampling budget for this Berth session\./,
      ),
      data: { used: 12_000, sessionBudget: 10_000 },
    });
    expect(calls).toHaveLength(3);
    expect(refusals).toEqual([expect.stringContaining('greedy: Sampling budget exhausted')]);
    expect(logs.texts('greedy', 'host')).toContain((error as ProtocolError).message);

    // A disconnect ends "allow for this session" but not the budget: the review is not even shown.
    review.forgetServer('greedy');
    await expect(review.handle('greedy', greedy)).rejects.toMatchObject({ code: -32000 });
    expect(pending.counts().total).toBe(0);
    budget.reset('greedy');
    const again = review.handle('greedy', greedy);
    expect((await next(pending, 'sampling')).payload.tokens).toMatchObject({ proposed: 4_096, used: 0 });
    pending.withdrawAll('done');
    await again.catch(() => undefined);
  });

  it('counts the max tokens sent when the model reports no usage, and nothing for a call that failed', async () => {
    usage = undefined;
    const review = make({ greedy: 'allow-session' });
    await review.handle('greedy', greedy);
    expect(budget.usage('greedy').used).toBe(4_096);
    expect(logs.texts('greedy', 'host')).toContain(
      'sampling: the model reported no token usage; counted the 4096 max tokens against the budget',
    );

    const failing = new SamplingReview({
      pending,
      logs,
      models: fixedSamplingModels(models.map(candidateOf), 'claude-sonnet-4-5'),
      generate: () => Promise.reject(new Error('529 overloaded')),
      budget,
      policies: { greedy: 'allow-session' },
    });
    await expect(failing.handle('greedy', greedy)).rejects.toMatchObject({
      message: 'The model request failed: 529 overloaded',
    });
    expect(budget.usage('greedy')).toMatchObject({ used: 4_096, inFlight: 0 });
  });

  it('"allow for this session" answers later requests with the default model, not the server\'s preference', async () => {
    const review = make();
    const first = review.handle('greedy', greedy);
    const prompt = await next(pending, 'sampling');
    expect(prompt.payload.model.id).toBe('claude-opus-4-1');
    expect(prompt.payload.defaultModel).toEqual({
      id: 'claude-sonnet-4-5',
      label: 'Claude Sonnet 4.5',
      provider: 'Anthropic',
    });
    pending.answer(prompt.id, { decision: 'approve', allowForSession: true });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await expect(first).resolves.toMatchObject({ model: 'claude-opus-4-1' });

    await expect(review.handle('greedy', greedy)).resolves.toMatchObject({ model: 'claude-sonnet-4-5' });
    expect(calls.map((c) => c.model)).toEqual(['claude-opus-4-1', 'claude-sonnet-4-5']);
    expect(logs.texts('greedy', 'host')).toContain(
      'sampling answered with claude-sonnet-4-5 (allowed for this session)',
    );
  });

  it('"allow for this session" keeps the model the person picked in the review, until the policy changes', async () => {
    const review = make();
    const first = review.handle('greedy', greedy);
    pending.answer((await next(pending, 'sampling')).id, {
      decision: 'approve',
      model: 'claude-haiku-4-5',
      allowForSession: true,
    });
    pending.answer((await next(pending, 'sampling-answer')).id, { decision: 'approve' });
    await first;
    await review.handle('greedy', greedy);
    await review.handle('greedy', { ...greedy, modelPreferences: { hints: [{ name: 'sonnet' }] } });
    expect(calls.map((c) => c.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5', 'claude-haiku-4-5']);

    // Back to asking, then allowed again from Settings (no review): the default model, not the old pick.
    budget.reset('greedy');
    review.setPolicy('greedy', 'ask');
    review.setPolicy('greedy', 'allow-session');
    await expect(review.handle('greedy', { ...greedy, maxTokens: 10 })).resolves.toMatchObject({
      model: 'claude-sonnet-4-5',
    });
  });
});
