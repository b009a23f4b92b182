import type { ResolvedInputExchangeContext } from '@modelcontextprotocol/ext-tasks/client';
import type { TaskId } from '@modelcontextprotocol/ext-tasks/core';
import { describe, expect, it, vi } from 'vitest';
import { taskInputHandler } from './task-input';
import type { TaskCallContext, TaskInputQuestionContext, ToolTaskQuestions } from './task-input';

const origin = { conversationId: 'c1', toolUseId: 'toolu_1' };

function questions(): ToolTaskQuestions & { asked: Array<{ kind: string; context: TaskInputQuestionContext }> } {
  const asked: Array<{ kind: string; context: TaskInputQuestionContext }> = [];
  return {
    asked,
    sampling: vi.fn(async (_server, _params, context) => {
      asked.push({ kind: 'sampling', context });
      return { model: 'claude', role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' } };
    }),
    elicitation: vi.fn(async (_server, _params, context) => {
      asked.push({ kind: 'elicitation', context });
      return { action: 'accept' as const, content: { name: 'Ada' } };
    }),
  };
}

const form = {
  kind: 'elicitation' as const,
  params: {
    mode: 'form',
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
};

function context(
  call: TaskCallContext | undefined,
  scope: 'task' | 'request' = 'task',
): ResolvedInputExchangeContext<TaskCallContext | undefined> {
  // ext-tasks brands its task ids; the handler reads them as text.
  const task = scope === 'task' ? { taskId: 'srv-task-1' as unknown as TaskId, inputId: 'name' } : {};
  return {
    scope,
    delivery: scope === 'task' ? 'task-update' : 'request-retry',
    ...task,
    applicationContext: call,
    signal: new AbortController().signal,
  };
}

describe('taskInputHandler', () => {
  it("asks the person through Berth's own form, labelled with the chat call that made the task", async () => {
    const asking = questions();
    const answer = await taskInputHandler('modern', asking)(form, context({ recordId: 'r1', resumed: false, origin }));
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(asking.asked).toEqual([{ kind: 'elicitation', context: { signal: expect.any(AbortSignal), origin } }]);
    expect(asking.elicitation).toHaveBeenCalledWith(
      'modern',
      expect.objectContaining({ message: 'Name?' }),
      expect.anything(),
    );
  });

  it('a task picked up after a restart names its Berth task, so its question lives as long as the task', async () => {
    const asking = questions();
    await taskInputHandler('modern', asking)(form, context({ recordId: 'r1', resumed: true, origin }));
    expect(asking.asked[0]?.context).toMatchObject({ origin, taskId: 'r1' });
  });

  it('sends a sampling input request to the sampling review', async () => {
    const asking = questions();
    const sampling = {
      kind: 'sampling' as const,
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
    };
    await taskInputHandler('modern', asking)(sampling, context({ recordId: 'r1', resumed: false }, 'request'));
    expect(asking.asked).toEqual([{ kind: 'sampling', context: { signal: expect.any(AbortSignal) } }]);
  });

  it('refuses, in words, a question it cannot show, and never answers it itself', async () => {
    const asking = questions();
    const handle = taskInputHandler('modern', asking);
    await expect(
      handle({ kind: 'elicitation', params: { mode: 'form', message: 7 } }, context(undefined)),
    ).rejects.toThrow(
      "task 'srv-task-1' of server 'modern' asked a question Berth cannot show: Invalid elicitation request",
    );
    await expect(handle({ kind: 'roots' }, context(undefined, 'request'))).rejects.toThrow(
      "a tool call of server 'modern' asked for roots inside the call, which Berth does not answer there yet",
    );
    expect(asking.asked).toEqual([]);
  });
});
