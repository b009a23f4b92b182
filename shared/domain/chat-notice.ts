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
  'chat-notice.too-many-tools': { count: number; countAt: number };
  'chat-notice.tools-too-large': ToolsTooLarge;
  'chat-notice.tools-too-many-and-large': ToolsTooLarge & { count: number; countAt: number };
};
/** The tool definitions' share of the window: the estimate, its characters a token, the share, the window, the limit. */
type ToolsTooLarge = { tokens: number; charsPerToken: number; percent: number; window: number; sharePercent: number };
export type ChatNoticeCode = keyof ChatNoticeMessages;

const n = (value: number): string => value.toLocaleString('en-US');
const TOOLS_ADVICE =
  ': switch off the servers or tools this conversation does not need, or set Tool search to Always on (Tools menu).';
const tooMany = ({ count, countAt }: { count: number; countAt: number }): string =>
  `${count} tools are offered to the model. Above about ${countAt} it picks tools less reliably and every request costs more`;
const tooLarge = ({ tokens, charsPerToken, percent, window, sharePercent }: ToolsTooLarge): string =>
  `The tool definitions alone take about ${n(tokens)} tokens (an estimate: ${charsPerToken} characters a token), ${percent}% of this model's ${n(window)}-token context, more than the ${sharePercent}% Berth warns at`;

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
  'chat-notice.too-many-tools': (params) => `${tooMany(params)}${TOOLS_ADVICE}`,
  'chat-notice.tools-too-large': (params) => `${tooLarge(params)}${TOOLS_ADVICE}`,
  'chat-notice.tools-too-many-and-large': (params) => `${tooMany(params)}. ${tooLarge(params)}${TOOLS_ADVICE}`,
};

/** A chat notice's English and its code, from the same facts. */
export const chatNotice = familyWords<ChatNoticeMessages>(ENGLISH);
