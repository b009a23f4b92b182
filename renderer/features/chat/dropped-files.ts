// The zod-free limits module: the contract's schemas must stay off the first screen.
import {
  isModelImageType,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MAX_MODEL_IMAGE_BYTES,
  MAX_TEXT_ATTACHMENT_BYTES,
} from '../../../shared/domain/attachment-limits';
import type { ChatAttachment } from '../../../shared/domain/chat';
import { formatBytes } from './content-blocks';
import { translate } from '../../i18n/use-t';

/** A dropped file: attached, or refused with a reason the person can act on. */
export type DroppedFile = { ok: true; attachment: ChatAttachment } | { ok: false; name: string; reason: string };

/** Bytes looked at to tell text from binary (a NUL byte early on means binary). */
const SNIFF_BYTES = 8 * 1024;

/**
 * Only the file's name goes into the message (as a `file:///name` URI), never
 * its folder: the model needs to know what it is reading, not where the
 * person keeps it.
 */
export function localFileUri(name: string): string {
  return `file:///${encodeURIComponent(name)}`;
}

/**
 * How a dropped local file becomes part of a message: PNG, JPEG, GIF and WebP
 * images (up to the model's 5 MB) as image blocks; any file that reads as
 * UTF-8 text (up to 512 KB) as a text attachment; everything else refused,
 * saying why.
 */
export async function fileToAttachment(file: File): Promise<DroppedFile> {
  const refuse = (reason: string): DroppedFile => ({ ok: false, name: file.name, reason });
  const mimeType = file.type.toLowerCase();
  if (mimeType.startsWith('image/')) {
    if (!isModelImageType(mimeType))
      return refuse(translate('chat.drop.imageType', { name: file.name, type: mimeType }));
    if (file.size > MAX_MODEL_IMAGE_BYTES)
      return refuse(
        translate('chat.drop.imageTooBig', {
          name: file.name,
          size: formatBytes(file.size),
          max: formatBytes(MAX_MODEL_IMAGE_BYTES),
        }),
      );
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { ok: true, attachment: { label: file.name, content: { type: 'image', data: toBase64(bytes), mimeType } } };
  }
  if (file.size > MAX_TEXT_ATTACHMENT_BYTES) {
    return refuse(
      translate('chat.drop.textTooBig', {
        name: file.name,
        size: formatBytes(file.size),
        max: formatBytes(MAX_TEXT_ATTACHMENT_BYTES),
      }),
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = decodeText(bytes);
  if (text === undefined) return refuse(translate('chat.drop.notText', { name: file.name }));
  return {
    ok: true,
    attachment: {
      label: file.name,
      content: { type: 'resource', resource: { uri: localFileUri(file.name), mimeType: textMimeType(mimeType), text } },
    },
  };
}

/** Text the person chose to attach rather than paste into the message. */
export function textAttachment(text: string, label: string): DroppedFile {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_TEXT_ATTACHMENT_BYTES) {
    return {
      ok: false,
      name: label,
      reason: translate('chat.drop.pastedTooBig', {
        size: formatBytes(bytes),
        max: formatBytes(MAX_TEXT_ATTACHMENT_BYTES),
      }),
    };
  }
  return {
    ok: true,
    attachment: {
      label,
      content: { type: 'resource', resource: { uri: localFileUri(`${label}.txt`), mimeType: 'text/plain', text } },
    },
  };
}

/**
 * Which of `incoming` still fit on a message that already carries `current`
 * (the contract's count and size limits); the rest are refused with why.
 */
export function fitAttachments(
  current: readonly ChatAttachment[],
  incoming: readonly DroppedFile[],
): { accepted: ChatAttachment[]; refused: { name: string; reason: string }[] } {
  const accepted: ChatAttachment[] = [];
  const refused: { name: string; reason: string }[] = [];
  let count = current.length;
  let size = JSON.stringify(current).length;
  for (const item of incoming) {
    if (!item.ok) {
      refused.push({ name: item.name, reason: item.reason });
      continue;
    }
    const itemSize = JSON.stringify(item.attachment).length + 1;
    if (count + 1 > MAX_ATTACHMENTS) {
      refused.push({
        name: item.attachment.label,
        reason: translate('chat.drop.tooMany', { max: String(MAX_ATTACHMENTS) }),
      });
    } else if (size + itemSize > MAX_ATTACHMENT_BYTES) {
      refused.push({
        name: item.attachment.label,
        reason: translate('chat.drop.tooLarge', { max: formatBytes(MAX_ATTACHMENT_BYTES) }),
      });
    } else {
      accepted.push(item.attachment);
      count += 1;
      size += itemSize;
    }
  }
  return { accepted, refused };
}

function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The file's own type when it names a text format, else plain text (the browser leaves many source files typeless). */
function textMimeType(mimeType: string): string {
  return mimeType === '' || mimeType === 'application/octet-stream' ? 'text/plain' : mimeType;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In chunks: String.fromCharCode with millions of arguments overflows the stack.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}
