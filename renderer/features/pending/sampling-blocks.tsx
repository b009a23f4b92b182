import type { SamplingBlock } from '../../../shared/domain/pending';
import { DataAudio, DataImage } from '../chat/content-blocks';
import { Chip } from '../../ui/controls';
import { useT } from '../../i18n/use-t';

function rowsFor(text: string): number {
  return Math.min(14, Math.max(2, text.split('\n').length + Math.floor(text.length / 90) + 1));
}

/**
 * One block of a sampling message or answer: text in an editor (when the
 * person may edit it), images and audio rendered, tool blocks as JSON.
 */
export function SamplingBlockView({
  block,
  label,
  onText,
  readOnly,
}: {
  block: SamplingBlock;
  label: string;
  onText?: (text: string) => void;
  readOnly?: boolean;
}) {
  const t = useT();
  switch (block.type) {
    case 'text':
      return readOnly || !onText ? (
        <pre className="prewrap sampling-text">{block.text}</pre>
      ) : (
        <textarea
          className="input sampling-textarea"
          aria-label={label}
          value={block.text}
          rows={rowsFor(block.text)}
          onChange={(e) => onText(e.target.value)}
        />
      );
    case 'image':
      return <DataImage data={block.data} mimeType={block.mimeType} alt={label} />;
    case 'audio':
      return <DataAudio data={block.data} mimeType={block.mimeType} label={label} />;
    case 'tool_use':
      return (
        <div className="sampling-tool-block">
          <Chip tone="accent">{t('pending.blocks.toolUse')}</Chip> <code>{block.name}</code>
          <pre className="code-block">{JSON.stringify(block.input, null, 2)}</pre>
        </div>
      );
    case 'tool_result':
      return (
        <div className="sampling-tool-block">
          <Chip tone={block.isError ? 'danger' : 'neutral'}>{t('pending.blocks.toolResult')}</Chip>
          <pre className="code-block">{JSON.stringify(block.structuredContent ?? block.content, null, 2)}</pre>
        </div>
      );
  }
}
