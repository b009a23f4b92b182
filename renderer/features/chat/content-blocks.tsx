import type { McpContentBlock } from '../../../shared/domain/chat';
import { useBerth } from '../../store';
import { Button, Chip } from '../../ui/controls';
import { ExternalIcon, LinkIcon } from '../../ui/icons';
import { formatBytes } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

// Sizes are words of the active locale's numbers; kept importable from here for the files that show content.
export { formatBytes };

/** Base64 payloads over this many characters are not decoded for display (about 24 MB of data). */
const MAX_INLINE_BASE64 = 32 * 1024 * 1024;

/** Bytes in a base64 string, without decoding it. */
export function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** Only real media types go into a data: URL, so a server cannot smuggle `text/html` into an <img>. */
function safeMime(mimeType: string, family: 'image' | 'audio'): string | undefined {
  return new RegExp(`^${family}/[a-z0-9.+-]+$`, 'i').test(mimeType) ? mimeType : undefined;
}

export function DataImage({ data, mimeType, alt }: { data: string; mimeType: string; alt: string }) {
  const t = useT();
  const mime = safeMime(mimeType, 'image');
  if (!mime || data.length > MAX_INLINE_BASE64)
    return (
      <p className="muted small">{t('chat.content.imageHidden', { mimeType, size: formatBytes(base64Size(data)) })}</p>
    );
  return <img className="content-image" src={`data:${mime};base64,${data}`} alt={alt} />;
}

export function DataAudio({ data, mimeType, label }: { data: string; mimeType: string; label: string }) {
  const t = useT();
  const mime = safeMime(mimeType, 'audio');
  if (!mime || data.length > MAX_INLINE_BASE64)
    return (
      <p className="muted small">{t('chat.content.audioHidden', { mimeType, size: formatBytes(base64Size(data)) })}</p>
    );
  return <audio className="content-audio" controls src={`data:${mime};base64,${data}`} aria-label={label} />;
}

function isWebLink(uri: string): boolean {
  return /^https?:\/\//i.test(uri);
}

/** One MCP content block of a tool result, whatever its type. */
/** `server` is the server the block came from: its resource links can then open in the resource browser. */
export function McpContentView({ block, server }: { block: McpContentBlock; server?: string | undefined }) {
  const t = useT();
  switch (block.type) {
    case 'text':
      return <pre className="content-text">{block.text}</pre>;
    case 'image':
      return <DataImage data={block.data} mimeType={block.mimeType} alt={t('chat.content.image')} />;
    case 'audio':
      return <DataAudio data={block.data} mimeType={block.mimeType} label={t('chat.content.audio')} />;
    case 'resource': {
      const { resource } = block;
      return (
        <div className="content-resource">
          <div className="content-resource-head">
            <Chip tone="accent">{t('chat.content.resource')}</Chip>
            <code className="wrap">{resource.uri}</code>
            {resource.mimeType ? <span className="muted small">{resource.mimeType}</span> : null}
          </div>
          {'text' in resource && typeof resource.text === 'string' ? (
            <pre className="content-text">{resource.text}</pre>
          ) : 'blob' in resource && typeof resource.blob === 'string' ? (
            resource.mimeType?.startsWith('image/') ? (
              <DataImage data={resource.blob} mimeType={resource.mimeType} alt={resource.uri} />
            ) : resource.mimeType?.startsWith('audio/') ? (
              <DataAudio data={resource.blob} mimeType={resource.mimeType} label={resource.uri} />
            ) : (
              <p className="muted small">
                {t('chat.content.binary', { size: formatBytes(base64Size(resource.blob)) })}
              </p>
            )
          ) : null}
        </div>
      );
    }
    case 'resource_link':
      return (
        <div className="content-link">
          <LinkIcon />
          <div className="content-link-text">
            <span className="content-link-name">
              {block.title ?? block.name}
              {block.mimeType ? <span className="muted small"> · {block.mimeType}</span> : null}
              {block.size !== undefined ? <span className="muted small"> · {formatBytes(block.size)}</span> : null}
            </span>
            {isWebLink(block.uri) ? (
              <a href={block.uri} target="_blank" rel="noopener noreferrer" className="content-link-uri">
                {block.uri} <ExternalIcon />
              </a>
            ) : (
              <code className="content-link-uri wrap">{block.uri}</code>
            )}
            {block.description ? <span className="muted small">{block.description}</span> : null}
          </div>
          {server !== undefined && !isWebLink(block.uri) ? (
            <OpenInBrowserButton server={server} uri={block.uri} />
          ) : null}
        </div>
      );
  }
}

function OpenInBrowserButton({ server, uri }: { server: string; uri: string }) {
  const openResourceInBrowser = useBerth((s) => s.openResourceInBrowser);
  const t = useT();
  return (
    <Button size="sm" onClick={() => openResourceInBrowser(server, uri)}>
      {t('chat.content.openInBrowser')}
    </Button>
  );
}
