import { describe, expect, it } from 'vitest';
import { conversationError } from './conversation-errors';

describe("conversations' failures: a code with its facts, and the English Berth always said", () => {
  it("words a corrupt file by what is wrong with it, the parser's words kept as they are", () => {
    expect(
      conversationError('conversation-errors.file-kept-aside', {
        id: 'c1',
        problem: 'notJson',
        detail: 'Unexpected end of JSON input',
        movedTo: '/d/c1.json.corrupt-1',
      }),
    ).toEqual({
      text: 'Conversation file c1.json could not be read (not valid JSON (Unexpected end of JSON input)); it was kept as /d/c1.json.corrupt-1',
      hostMessage: {
        code: 'conversation-errors.file-kept-aside',
        params: {
          id: 'c1',
          problem: 'notJson',
          detail: 'Unexpected end of JSON input',
          movedTo: '/d/c1.json.corrupt-1',
        },
      },
    });
    expect(
      conversationError('conversation-errors.file-left', {
        id: 'c2',
        problem: 'otherId',
        detail: 'c9',
        moveError: 'EISDIR',
      }).text,
    ).toBe(
      'Conversation file c2.json could not be read (it says it is conversation c9) and could not be moved aside (EISDIR); it was left as it is',
    );
  });

  it("keeps a result's offset and length and a task's id as facts", () => {
    expect(conversationError('conversation-errors.offset-past-end', { offset: 90, length: 12 })).toEqual({
      text: 'The offset 90 is past the end of the result (12 characters)',
      hostMessage: { code: 'conversation-errors.offset-past-end', params: { offset: 90, length: 12 } },
    });
    expect(conversationError('conversation-errors.task-not-finished', { taskId: 't-7' }).text).toBe(
      'No background task t-7 has finished in this conversation',
    );
  });
});
