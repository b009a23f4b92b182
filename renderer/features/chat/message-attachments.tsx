import type { ChatAttachment } from '../../../shared/domain/chat';
import { Chip } from '../../ui/controls';
import { base64Size, DataAudio, DataImage, formatBytes } from './content-blocks';
import type { MessageId } from '../../i18n/message-ids';
import { useT } from '../../i18n/use-t';

function kindOf(attachment: ChatAttachment): MessageId {
  const content = attachment.content;
  if (content.type === 'image') return 'chat.attachment.image';
  if (content.type === 'audio') return 'chat.attachment.audio';
  return 'text' in content.resource ? 'chat.attachment.text' : 'chat.attachment.file';
}

/** What the person attached to a sent message: a chip per attachment (kind, label, server); text opens in place. */
export function MessageAttachments({ attachments }: { attachments: ChatAttachment[] }) {
  const t = useT();
  return (
    <ul className="message-attachments" aria-label={t('chat.composer.attachments')}>
      {attachments.map((attachment, index) => (
        <li key={`${index}-${attachment.label}`} className="message-attachment" data-testid="message-attachment">
          <AttachmentBody attachment={attachment} />
        </li>
      ))}
    </ul>
  );
}

function Head({ attachment }: { attachment: ChatAttachment }) {
  const t = useT();
  return (
    <span className="message-attachment-head">
      <Chip tone="accent">{t(kindOf(attachment))}</Chip>
      <span className="message-attachment-label">{attachment.label}</span>
      {attachment.server !== undefined ? (
        <span className="muted small">{t('chat.attachment.from', { server: attachment.server })}</span>
      ) : null}
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
