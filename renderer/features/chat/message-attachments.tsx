import type { ChatAttachment } from '../../../shared/domain/chat';
import { Chip } from '../../ui/controls';
import { base64Size, DataAudio, DataImage, formatBytes } from './content-blocks';

function kindOf(attachment: ChatAttachment): string {
  const content = attachment.content;
  if (content.type === 'image') return 'image';
  if (content.type === 'audio') return 'audio';
  return 'text' in content.resource ? 'text' : 'file';
}

/** What the person attached to a sent message: a chip per attachment (kind, label, server); text opens in place. */
export function MessageAttachments({ attachments }: { attachments: ChatAttachment[] }) {
  return (
    <ul className="message-attachments" aria-label="Attachments">
      {attachments.map((attachment, index) => (
        <li key={`${index}-${attachment.label}`} className="message-attachment" data-testid="message-attachment">
          <AttachmentBody attachment={attachment} />
        </li>
      ))}
    </ul>
  );
}

function Head({ attachment }: { attachment: ChatAttachment }) {
  return (
    <span className="message-attachment-head">
      <Chip tone="accent">{kindOf(attachment)}</Chip>
      <span className="message-attachment-label">{attachment.label}</span>
      {attachment.server !== undefined ? <span className="muted small">from {attachment.server}</span> : null}
    </span>
  );
}

function AttachmentBody({ attachment }: { attachment: ChatAttachment }) {
  const content = attachment.content;
  if (content.type === 'image') {
    return (
      <>
        <Head attachment={attachment} />
        <DataImage data={content.data} mimeType={content.mimeType} alt={attachment.label} />
      </>
    );
  }
  if (content.type === 'audio') {
    return (
      <>
        <Head attachment={attachment} />
        <DataAudio data={content.data} mimeType={content.mimeType} label={attachment.label} />
      </>
    );
  }
  const resource = content.resource;
  if ('text' in resource && typeof resource.text === 'string') {
    return (
      <details>
        <summary>
          <Head attachment={attachment} />
        </summary>
        <pre>{resource.text}</pre>
      </details>
    );
  }
  const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
  return (
    <>
      <Head attachment={attachment} />
      <span className="muted small">
        {resource.mimeType ?? 'binary'}, {formatBytes(base64Size(blob))}
      </span>
    </>
  );
}
