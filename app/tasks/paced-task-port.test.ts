import type { ConnectedMcpSessionPort, DispatchOptions, JsonRpcResponse } from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { PacedTaskPort, POLL_TIMEOUTS_TOLERATED } from './paced-task-port';
import { TaskPollPacer } from './task-poll-pacer';

/** An inner port whose answers are scripted: an error to throw, or a result. */
function scriptedPort(answers: Array<Error | JsonRpcResponse>): {
  port: ConnectedMcpSessionPort & Disposable;
  sent: JsonValue[];
} {
  const sent: JsonValue[] = [];
  const port = {
    endpointId: 'berth:test',
    taskCapabilities: {} as ConnectedMcpSessionPort['taskCapabilities'],
    invalidated: false,
    dispatch: async (request: JsonValue, _options?: DispatchOptions): Promise<JsonRpcResponse> => {
      sent.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('no answer scripted');
      if (next instanceof Error) throw next;
      return next;
    },
    onServerRequest: () => () => undefined,
    onNotification: () => () => undefined,
    onInvalidated: () => () => undefined,
    [Symbol.dispose]: () => undefined,
  };
  return { port, sent };
}

const visibility = { windowVisible: true, onWindowVisibility: () => () => undefined };
// The connection's send, as in ToolTaskSession: here it only runs the request.
const through = <T>(
  _method: string,
  _what: string,
  _signal: AbortSignal | undefined,
  send: () => Promise<T>,
): Promise<T> => send();
const poll: JsonValue = { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 't-1' } };
const timeout = (): HostError =>
  new HostError('TIMEOUT', "tasks/get task 't-1' on server 's' did not answer within 1 s");
const working: JsonRpcResponse = {
  jsonrpc: '2.0',
  id: 1,
  result: { taskId: 't-1', status: 'working' },
} as unknown as JsonRpcResponse;

describe('PacedTaskPort', () => {
  it('asks a poll that timed out again before giving the task up', async () => {
    const pacer = new TaskPollPacer(visibility);
    pacer.started('t-1', 1);
    const { port, sent } = scriptedPort([timeout(), timeout(), working]);
    const paced = new PacedTaskPort(port, pacer, through);
    expect(await paced.dispatch(poll)).toBe(working);
    expect(sent).toHaveLength(3);
    pacer.close();
  });

  it(`gives up after ${POLL_TIMEOUTS_TOLERATED} timeouts in a row, and at once on any other failure or for any other request`, async () => {
    const pacer = new TaskPollPacer(visibility);
    pacer.started('t-1', 1);
    const many = scriptedPort(Array.from({ length: POLL_TIMEOUTS_TOLERATED + 1 }, timeout));
    await expect(new PacedTaskPort(many.port, pacer, through).dispatch(poll)).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(many.sent).toHaveLength(POLL_TIMEOUTS_TOLERATED);

    const refused = scriptedPort([new HostError('SERVER_ERROR', 'unknown task'), working]);
    await expect(new PacedTaskPort(refused.port, pacer, through).dispatch(poll)).rejects.toMatchObject({
      code: 'SERVER_ERROR',
    });
    expect(refused.sent).toHaveLength(1);

    const cancel: JsonValue = { jsonrpc: '2.0', id: 2, method: 'tasks/cancel', params: { taskId: 't-1' } };
    const once = scriptedPort([timeout(), working]);
    await expect(new PacedTaskPort(once.port, pacer, through).dispatch(cancel)).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(once.sent).toHaveLength(1);
    pacer.close();
  });
});

describe('PacedTaskPort keeps the immediate response a server gives with a new task', () => {
  const IMMEDIATE = 'io.modelcontextprotocol/model-immediate-response';
  const call = (id: number): JsonValue => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'crawl' } });

  it('in both eras, once, and only from a tools/call that made a task', async () => {
    const { port: inner } = scriptedPort([
      // 2025-11-25: the task is nested.
      { kind: 'result', result: { task: { taskId: 'v1-task', status: 'working' }, _meta: { [IMMEDIATE]: 'Queued.' } } },
      // 2026-07-28: the result is the task.
      {
        kind: 'result',
        result: { resultType: 'task', taskId: 'v2-task', status: 'working', _meta: { [IMMEDIATE]: 'Later.' } },
      },
      // Not a string: nothing kept.
      { kind: 'result', result: { task: { taskId: 'odd-task', status: 'working' }, _meta: { [IMMEDIATE]: 42 } } },
    ]);
    const port = new PacedTaskPort(inner, new TaskPollPacer(visibility), through);
    for (const id of [1, 2, 3]) await port.dispatch(call(id));
    expect(port.takeImmediateResponse('v1-task')).toBe('Queued.');
    expect(port.takeImmediateResponse('v1-task')).toBeUndefined();
    expect(port.takeImmediateResponse('v2-task')).toBe('Later.');
    expect(port.takeImmediateResponse('odd-task')).toBeUndefined();
  });
});
