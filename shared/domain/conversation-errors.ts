import { codedFamily } from './host-wording';

/**
 * The failures of finding, naming and restoring conversations, as codes with their facts; the renderer
 * words them from renderer/i18n/locales/<locale>/conversation-errors.json.
 */
export type ConversationErrorMessages = {
  'conversation-errors.not-found': { id: string };
  'conversation-errors.not-deleted': { id: string };
  'conversation-errors.not-in-trash': { id: string };
  'conversation-errors.model-missing': Record<string, never>;
  'conversation-errors.model-empty': Record<string, never>;
  'conversation-errors.title-missing': Record<string, never>;
  'conversation-errors.title-too-long': { max: number };
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
});
