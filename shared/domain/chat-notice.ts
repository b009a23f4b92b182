import { familyWords, type EnglishOf } from './host-wording';

// What the person should know about a turn that goes on (a `turn-notice`), as codes the renderer words from
// renderer/i18n/locales/<locale>/chat-notice.json. `model` is the model's name as Berth shows it.

/** The codes of chat notices, each with its parameters. */
export type ChatNoticeMessages = {
  'chat-notice.no-tools': { model: string };
  'chat-notice.no-images': { model: string; count: number };
  'chat-notice.api-compacted': { before: number; messages: number; model: string; after: number };
  'chat-notice.compacted': { before: number; messages: number; model: string; after: number };
  'chat-notice.dropped': { before: number; messages: number; model: string; after: number };
  'chat-notice.own-compaction': { detail: string };
};
export type ChatNoticeCode = keyof ChatNoticeMessages;

const n = (value: number): string => value.toLocaleString('en-US');

const ENGLISH: EnglishOf<ChatNoticeMessages> = {
  'chat-notice.no-tools': ({ model }) =>
    `${model} cannot use tools, so this reply has none. Pick another model in the message box to use tools.`,
  'chat-notice.no-images': ({ model, count }) => {
    const what = count === 1 ? 'an image in this conversation was' : `${count} images in this conversation were`;
    return `${model} does not take images, so ${what} not sent to it (it reads a note in ${count === 1 ? 'its' : 'their'} place). Pick another model in the message box, or turn on “takes images” for this model in Settings → Model providers.`;
  },
  'chat-notice.api-compacted': ({ before, messages, model, after }) =>
    `The conversation had grown to about ${n(before)} tokens, so Anthropic compacted its ${n(messages)} oldest messages for ${model} itself: about ${n(after)} tokens now. The messages stay saved; the summary is what the model now remembers of them.`,
  'chat-notice.compacted': ({ before, messages, model, after }) =>
    `The conversation had grown to about ${n(before)} tokens, near ${model}'s window, so Berth summarised its ${n(messages)} oldest messages with ${model}: about ${n(after)} tokens now. The messages stay saved; the summary is what the model now remembers of them.`,
  'chat-notice.dropped': ({ before, messages, model, after }) =>
    `The conversation had grown to about ${n(before)} tokens, near ${model}'s window, so its ${n(messages)} oldest messages are left out of requests (they stay saved): about ${n(after)} tokens now.`,
  'chat-notice.own-compaction': ({ detail }) =>
    `Anthropic refused to manage this conversation's context itself (${detail}). Berth manages this conversation's context itself from now on, and asks again.`,
};

/** A chat notice's English and its code, from the same facts. */
export const chatNotice = familyWords<ChatNoticeMessages>(ENGLISH);
