import { codedFamily } from './host-wording';

/** Why a conversation file's content cannot be used (a fact the catalog selects its words by). */
export type ConversationFileProblem = 'otherId' | 'invalid' | 'notJson';

/**
 * The failures of finding, naming, restoring and reading conversations and of the chat's calls on one (a
 * retry, an edit, a page of a result, a task's result), as codes with their facts; the renderer words them
 * from renderer/i18n/locales/<locale>/conversation-errors.json. `detail` is the OS's, the JSON parser's or
 * the schema's own words; with `problem` 'otherId' it is the id the file holds.
 */
export type ConversationErrorMessages = {
  'conversation-errors.not-found': { id: string };
  'conversation-errors.not-deleted': { id: string };
  'conversation-errors.not-in-trash': { id: string };
  'conversation-errors.model-missing': Record<string, never>;
  'conversation-errors.model-empty': Record<string, never>;
  'conversation-errors.title-missing': Record<string, never>;
  'conversation-errors.title-too-long': { max: number };
  'conversation-errors.bad-id': { id: string };
  'conversation-errors.trash-move-failed': { id: string; detail: string };
  'conversation-errors.trash-unreadable': { detail: string };
  'conversation-errors.file-unreadable': { id: string; detail: string };
  'conversation-errors.file-kept-aside': {
    id: string;
    problem: ConversationFileProblem;
    detail: string;
    movedTo: string;
  };
  'conversation-errors.file-left': { id: string; problem: ConversationFileProblem; detail: string; moveError: string };
  'conversation-errors.result-not-saved': Record<string, never>;
  'conversation-errors.result-gone': Record<string, never>;
  'conversation-errors.offset-past-end': { offset: number; length: number };
  'conversation-errors.message-empty': Record<string, never>;
  'conversation-errors.nothing-to-retry': Record<string, never>;
  'conversation-errors.edit-empty': Record<string, never>;
  'conversation-errors.nothing-to-edit': Record<string, never>;
  'conversation-errors.reply-running': Record<string, never>;
  'conversation-errors.task-not-finished': { taskId: string };
  'conversation-errors.task-result-sent': Record<string, never>;
  'conversation-errors.not-failed': Record<string, never>;
  'conversation-errors.nothing-to-restore': Record<string, never>;
  'conversation-errors.not-editable': Record<string, never>;
  'conversation-errors.not-regenerable': Record<string, never>;
  'conversation-errors.too-many-versions': { max: number };
  'conversation-errors.version-gone': Record<string, never>;
  'conversation-errors.nothing-to-continue': Record<string, never>;
  'conversation-errors.temperature-above-provider': { model: string; max: number };
  'conversation-errors.max-tokens-above-window': { model: string; window: number };
};
export type ConversationErrorCode = keyof ConversationErrorMessages;

/** A conversation's failure in English with its code (the English is what Berth always said). */
export const conversationError = codedFamily<ConversationErrorMessages>({
  'conversation-errors.not-found': ({ id }) => `No conversation with id ${id}`,
  'conversation-errors.not-deleted': ({ id }) => `No deleted conversation with id ${id}`,
  'conversation-errors.not-in-trash': ({ id }) => `Conversation ${id} is not in the trash`,
  'conversation-errors.model-missing': () => 'Choose a model for the conversation',
  'conversation-errors.model-empty': () => 'The model name is empty',
  'conversation-errors.title-missing': () => 'Give the conversation a title',
  'conversation-errors.title-too-long': ({ max }) => `Keep the title under ${max} characters`,
  'conversation-errors.bad-id': ({ id }) => `Not a conversation id: ${id}`,
  'conversation-errors.trash-move-failed': ({ id, detail }) =>
    `Could not move conversation ${id} to the trash: ${detail}`,
  'conversation-errors.trash-unreadable': ({ detail }) => `Could not read the trash: ${detail}`,
  'conversation-errors.file-unreadable': ({ id, detail }) =>
    `Conversation file ${id}.json could not be read: ${detail}`,
  'conversation-errors.file-kept-aside': ({ id, problem, detail, movedTo }) =>
    `Conversation file ${id}.json could not be read (${fileProblemText(problem, detail)}); it was kept as ${movedTo}`,
  'conversation-errors.file-left': ({ id, problem, detail, moveError }) =>
    `Conversation file ${id}.json could not be read (${fileProblemText(problem, detail)}) and could not be moved aside (${moveError}); it was left as it is`,
  'conversation-errors.result-not-saved': () =>
    'This result is not in the conversation (it is not saved yet, or the conversation changed): reopen the conversation and try again',
  'conversation-errors.result-gone': () =>
    'This result is no longer available: its file beside the conversation is missing or damaged, so only the preview in the chat is left',
  'conversation-errors.offset-past-end': ({ offset, length }) =>
    `The offset ${offset} is past the end of the result (${length} characters)`,
  'conversation-errors.message-empty': () => 'Write a message first',
  'conversation-errors.nothing-to-retry': () => 'There is no message to retry in this conversation',
  'conversation-errors.edit-empty': () => 'The edited message is empty',
  'conversation-errors.nothing-to-edit': () => 'There is no message to edit in this conversation',
  'conversation-errors.reply-running': () => 'A reply is still being written in this conversation: stop it first',
  'conversation-errors.task-not-finished': ({ taskId }) =>
    `No background task ${taskId} has finished in this conversation`,
  'conversation-errors.task-result-sent': () =>
    "This task's result was sent to the model already; it is not sent twice",
  'conversation-errors.not-failed': () =>
    'Only a message that got no reply can be retried or discarded this way; reopen the conversation to see it as it is',
  'conversation-errors.nothing-to-restore': () =>
    'This message can no longer be brought back (Berth restarted since, or it was restored already)',
  'conversation-errors.not-editable': () =>
    'Only a message you wrote can be edited this way; reopen the conversation to see it as it is',
  'conversation-errors.not-regenerable': () =>
    "Only the model's reply can be regenerated; reopen the conversation to see it as it is",
  'conversation-errors.too-many-versions': ({ max }) =>
    `This message already has ${max} versions, the most Berth keeps: switch to one of them, or start a new conversation`,
  'conversation-errors.version-gone': () =>
    'That version is no longer in the conversation (it changed since); reopen the conversation to see its versions',
  'conversation-errors.nothing-to-continue': () => 'There is no unfinished reply to continue in this conversation',
  'conversation-errors.temperature-above-provider': ({ model, max }) =>
    `${model} takes a temperature from 0 to ${max}: choose ${max} or less, or pick another model first`,
  'conversation-errors.max-tokens-above-window': ({ model, window }) =>
    `${model} reads and writes at most ${window} tokens in all: choose fewer tokens for its replies`,
});

/** "not valid JSON (Unexpected token…)": what is wrong with a conversation file's content, in English. */
export function fileProblemText(problem: ConversationFileProblem, detail: string): string {
  switch (problem) {
    case 'otherId':
      return `it says it is conversation ${detail}`;
    case 'invalid':
      return detail;
    case 'notJson':
      return `not valid JSON (${detail})`;
  }
}
