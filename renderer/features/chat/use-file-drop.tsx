import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { ChatAttachment } from '../../../shared/domain/chat';
import { IconButton } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * Files dropped on the composer become attachments of the draft (see
 * fileToAttachment for which and how); each refused file is listed with the
 * reason until the person closes the list or drops again.
 */
export function useFileDrop({
  conversationId,
  attachments,
  attach,
}: {
  conversationId: string;
  attachments: readonly ChatAttachment[];
  attach: (attachments: ChatAttachment[]) => void;
}) {
  const t = useT();
  const [dragging, setDragging] = useState(false);
  const [refused, setRefused] = useState<{ name: string; reason: string }[]>([]);
  // dragenter/dragleave fire for every child the pointer crosses: count them to know when it really left.
  const depth = useRef(0);
  useEffect(() => setRefused([]), [conversationId]);

  const dropProps = {
    onDragEnter(event: DragEvent) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver(event: DragEvent) {
      if (!hasFiles(event)) return;
      // Without this the browser opens the file instead of dropping it here.
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave(event: DragEvent) {
      if (!hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop(event: DragEvent) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer.files);
      void (async () => {
        // Loaded on the first drop: the composer is on the first screen, its JavaScript budget is tight.
        const { fileToAttachment, fitAttachments } = await import('./dropped-files');
        const read = await Promise.all(files.map(fileToAttachment));
        const fitted = fitAttachments(attachments, read);
        if (fitted.accepted.length > 0) attach(fitted.accepted);
        setRefused(fitted.refused);
      })();
    },
  };

  const panel: ReactNode =
    refused.length === 0 ? null : (
      <div className="composer-refused" role="alert">
        <div className="composer-refused-head">
          <strong>{t('chat.drop.refused', { count: refused.length })}</strong>
          <IconButton
            size="sm"
            variant="ghost"
            label={t('chat.drop.close')}
            icon={<CloseIcon />}
            onClick={() => setRefused([])}
          />
        </div>
        <ul>
          {refused.map((item, index) => (
            <li key={`${index}-${item.name}`}>{item.reason}</li>
          ))}
        </ul>
      </div>
    );
  return {
    dropProps,
    dragging,
    panel,
    showRefusal: (name: string, reason: string) => setRefused([{ name, reason }]),
    /** The message went out: what was refused for it is no longer news. */
    clearRefusals: () => setRefused([]),
  };
}
