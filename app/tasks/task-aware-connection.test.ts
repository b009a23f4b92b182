import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../../shared/domain/server';
import { taskPreference } from './task-aware-connection';

const tool = (taskSupport?: 'forbidden' | 'optional' | 'required'): ToolInfo => ({ name: 't', inputSchema: { type: 'object' }, ...(taskSupport ? { execution: { taskSupport } } : {}) });
const taskServer = { era: 'legacy' as const, capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } };

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
    expect(taskPreference(tool('required'), { era: 'legacy', capabilities: { tools: {}, tasks: { list: {} } } }, true)).toBeUndefined();
    expect(taskPreference(tool('required'), { era: 'legacy', capabilities: { tools: {} } }, true)).toBeUndefined();
    expect(taskPreference(tool('required'), { ...taskServer, era: 'modern' }, true)).toBeUndefined();
  });
});
