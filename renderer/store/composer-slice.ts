import type { ChatAttachment } from '../../shared/domain/chat';
import type { ComposerDraft, ComposerSlice } from './chat-types';
import type { SliceCreator } from './types';

const EMPTY_DRAFT: ComposerDraft = { text: '', attachments: [] };

/** A conversation's unsent message; the same empty object for every conversation without one. */
export function composerDraft(drafts: Record<string, ComposerDraft>, conversationId: string): ComposerDraft {
  return drafts[conversationId] ?? EMPTY_DRAFT;
}

/**
 * Unsent messages per conversation, kept in the store (not the text box) so
 * that features outside the composer can add to them — a prompt's messages, a
 * resource attached from the resource browser — and so a draft survives
 * switching conversations.
 */
export const createComposerSlice: SliceCreator<ComposerSlice> = () => (set) => {
  const update = (conversationId: string, change: (draft: ComposerDraft) => ComposerDraft) =>
    set((s) => ({
      composerDrafts: {
        ...s.composerDrafts,
        [conversationId]: change(composerDraft(s.composerDrafts, conversationId)),
      },
    }));

  return {
    composerDrafts: {},
    setComposerText(conversationId, text) {
      update(conversationId, (draft) => ({ ...draft, text }));
    },
    insertIntoComposer(conversationId, text) {
      // Appended after what is there, separated by a blank line, so nothing typed is overwritten.
      update(conversationId, (draft) => ({
        ...draft,
        text: draft.text.trim() === '' ? text : `${draft.text.replace(/\s+$/, '')}\n\n${text}`,
      }));
    },
    attachToComposer(conversationId, attachments: ChatAttachment[]) {
      update(conversationId, (draft) => ({ ...draft, attachments: [...draft.attachments, ...attachments] }));
    },
    removeComposerAttachment(conversationId, index) {
      update(conversationId, (draft) => ({ ...draft, attachments: draft.attachments.filter((_, i) => i !== index) }));
    },
    clearComposer(conversationId) {
      set((s) => {
        if (!(conversationId in s.composerDrafts)) return {};
        const composerDrafts = { ...s.composerDrafts };
        delete composerDrafts[conversationId];
        return { composerDrafts };
      });
    },
  };
};
