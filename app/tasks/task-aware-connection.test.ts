import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../shared/domain/server';
import { nameToolTwins } from '../../shared/domain/tool-twins';
import type { SupervisedConnection } from '../servers/connection-options';
import { TaskAwareConnection, taskPreference } from './task-aware-connection';
import type { ToolTaskSession } from './tool-task-session';

const tool = (taskSupport?: 'forbidden' | 'optional' | 'required'): ToolInfo => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...(taskSupport ? { execution: { taskSupport } } : {}),
});
const taskServer = {
  era: 'legacy' as const,
  capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
};

describe('taskPreference', () => {
  it('runs required tools as tasks, optional ones when the setting says so, others plainly', () => {
    expect(taskPreference(tool('required'), taskServer, false)).toBe('require');
    expect(taskPreference(tool('optional'), taskServer, true)).toBe('prefer');
    expect(taskPreference(tool('optional'), taskServer, false)).toBeUndefined();
    expect(taskPreference(tool('forbidden'), taskServer, true)).toBeUndefined();
    expect(taskPreference(tool(), taskServer, true)).toBeUndefined();
    expect(taskPreference(undefined, taskServer, true)).toBeUndefined();
  });

  it('only with a 2025-11-25 server that declares task-augmented tool calls', () => {
    expect(
      taskPreference(tool('required'), { era: 'legacy', capabilities: { tools: {}, tasks: { list: {} } } }, true),
    ).toBeUndefined();
    expect(taskPreference(tool('required'), { era: 'legacy', capabilities: { tools: {} } }, true)).toBeUndefined();
    expect(taskPreference(tool('required'), { ...taskServer, era: 'modern' }, true)).toBeUndefined();
  });

  it('2026-07-28: every call of a server that declares the tasks extension goes through the task session (the server decides)', () => {
    const modern = (value: unknown) => ({
      era: 'modern' as const,
      capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': value } },
    });
    expect(taskPreference(tool(), modern({}), false)).toBe('allow');
    expect(taskPreference(undefined, modern({}), true)).toBe('allow');
    // ext-tasks runs v2 tasks only for the extension's value {}: anything else is not the extension it knows.
    expect(taskPreference(tool(), modern({ version: 2 }), true)).toBeUndefined();
    expect(taskPreference(tool(), modern(null), true)).toBeUndefined();
    expect(taskPreference(tool(), { era: 'modern', capabilities: { tools: {} } }, true)).toBeUndefined();
  });
});

describe('TaskAwareConnection with tools that share a name', () => {
  it('decides by the twin Berth named and creates the task under the name the server listed', async () => {
    const tools = nameToolTwins([
      { name: 'search', inputSchema: { type: 'object' } },
      {
        name: 'search',
        inputSchema: { type: 'object', required: ['pattern'] },
        execution: { taskSupport: 'required' },
      },
    ]);
    const plain: string[] = [];
    const tasked: Array<[string, string]> = [];
    const inner = {
      client: { getProtocolEra: () => 'legacy', getServerCapabilities: () => taskServer.capabilities },
      tools,
      callTool: async (name: string) => {
        plain.push(name);
        return { content: [] };
      },
    } as unknown as SupervisedConnection;
    const session = {
      call: async (name: string, _args: unknown, _options: unknown, preference: string) => {
        tasked.push([name, preference]);
        return { content: [] };
      },
    } as unknown as ToolTaskSession;
    const connection = new TaskAwareConnection(inner, session, () => false);
    await connection.callTool('search_2', { pattern: '*' });
    await connection.callTool('search', { query: 'x' });
    // The first `search` is not a task tool; its twin must run as one, and reaches the server as `search`.
    expect(tasked).toEqual([['search', 'require']]);
    expect(plain).toEqual(['search']);
  });
});
