import type { PromptArgumentInfo, PromptInfo, PromptResult } from '../../../shared/contract/prompts';
import type { ChatAttachment, McpContentBlock } from '../../../shared/domain/chat';
import { promptLabel } from './slash-model';
import { translate } from '../../i18n/use-t';

export type ArgumentValues = Record<string, string>;

/** What the form calls an argument. */
export function argumentLabel(argument: PromptArgumentInfo): string {
  return argument.title !== undefined && argument.title.trim() !== '' ? argument.title : argument.name;
}

export function emptyValues(prompt: PromptInfo): ArgumentValues {
  return Object.fromEntries(prompt.arguments.map((argument) => [argument.name, '']));
}

/** One message per required argument left empty; an empty object when the form can be sent. */
export function validateArguments(prompt: PromptInfo, values: ArgumentValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const argument of prompt.arguments) {
    if (argument.required === true && (values[argument.name] ?? '').trim() === '')
      errors[argument.name] = translate('chat.prompt.argumentRequired', { argument: argumentLabel(argument) });
  }
  return errors;
}

/** The arguments to send: optional ones left empty are left out, so the server applies its default. */
export function argumentsToSend(prompt: PromptInfo, values: ArgumentValues): ArgumentValues {
  const sent: ArgumentValues = {};
  for (const argument of prompt.arguments) {
    const value = values[argument.name] ?? '';
    if (value.trim() !== '' || argument.required === true) sent[argument.name] = value;
  }
  return sent;
}

/** The other arguments already filled in, sent as completion context so suggestions can depend on them. */
export function completionContext(values: ArgumentValues, except: string): ArgumentValues {
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => name !== except && value.trim() !== ''));
}

/** The role labels a prompt that mixes roles gets in the draft, in the person's language (the draft is theirs to send). */
const ROLE_LABEL = { user: 'chat.prompt.roleUser', assistant: 'chat.prompt.roleAssistant' } as const;

/** Turns one content block into text for the draft, or undefined when it becomes an attachment. */
function blockText(block: McpContentBlock): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource_link') return `[${block.title ?? block.name}](${block.uri})`;
  return undefined;
}

function attachmentFor(block: McpContentBlock, server: string, label: string): ChatAttachment | undefined {
  if (block.type === 'image' || block.type === 'audio') return { server, label, content: block };
  if (block.type === 'resource') return { server, label: block.resource.uri, content: block };
  return undefined;
}

/**
 * A prompt's messages as a draft: text goes into the message box, images,
 * audio and embedded resources become labelled attachments. Role labels are
 * added only when the prompt mixes user and assistant messages, so a plain
 * one-message prompt reads as what the person would have typed.
 */
export function promptResultToDraft(
  prompt: PromptInfo,
  result: PromptResult,
): { text: string; attachments: ChatAttachment[] } {
  const mixedRoles = new Set(result.messages.map((message) => message.role)).size > 1;
  const parts: string[] = [];
  const attachments: ChatAttachment[] = [];
  const counts = { image: 0, audio: 0 };
  for (const message of result.messages) {
    const { content } = message;
    const text = blockText(content);
    if (text !== undefined) {
      parts.push(mixedRoles ? `${translate(ROLE_LABEL[message.role])}:\n${text}` : text);
      continue;
    }
    let label = promptLabel(prompt);
    if (content.type === 'image' || content.type === 'audio') {
      counts[content.type] += 1;
      label = `${label} · ${content.type} ${counts[content.type]}${mixedRoles ? ` (${translate(ROLE_LABEL[message.role]).toLowerCase()})` : ''}`;
    }
    const attachment = attachmentFor(content, prompt.server, label);
    if (attachment !== undefined) attachments.push(attachment);
  }
  return { text: parts.join('\n\n'), attachments };
}
