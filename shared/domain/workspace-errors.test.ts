import { describe, expect, it } from 'vitest';
import { workspaceError } from './workspace-errors';

describe("tasks', resources', prompts' and completion's failures: a code with its facts, and the English Berth always said", () => {
  it('names the task and the server', () => {
    expect(workspaceError('workspace-errors.task-not-found', { id: 't1' })).toEqual({
      text: "no task 't1'",
      hostMessage: { code: 'workspace-errors.task-not-found', params: { id: 't1' } },
    });
    expect(workspaceError('workspace-errors.no-completions', { server: 'everything' }).text).toBe(
      "server 'everything' does not declare the completions capability, so it cannot suggest values",
    );
  });

  it("keeps a resource's size and a prompt's message number as facts", () => {
    expect(
      workspaceError('workspace-errors.resource-too-large', {
        uri: 'file:///a.bin',
        server: 'fs',
        size: '12.5',
        max: 10,
      }).text,
    ).toBe("file:///a.bin on server 'fs' is 12.5 MB of binary data; Berth shows at most 10 MB");
    expect(
      workspaceError('workspace-errors.prompt-unsupported', { server: 's', name: 'p', index: 2, kind: 'video' }).text,
    ).toBe("server 's' returned prompt 'p' with message 2 of an unsupported kind (video)");
  });
});
