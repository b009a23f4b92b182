import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';
import { useMemo } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { ResourcePart } from '../../../shared/contract/resources';
import { DataAudio, DataImage } from '../chat/content-blocks';
import { formatBytes } from '../../i18n/format';
import { useT } from '../../i18n/use-t';
import { Markdown } from '../chat/markdown';
import { Button } from '../../ui/controls';
import { ArrowDownIcon } from '../../ui/icons';
import { downloadName, languageForMime, prettyJson } from './resource-model';

// The same grammars as chat code blocks (the modules are shared, so the bundle does not grow).
const lowlight = createLowlight({ bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml });

/** Text above this is shown plain: highlighting megabytes would freeze the window. */
const HIGHLIGHT_LIMIT = 200_000;

function HighlightedText({ text, mimeType }: { text: string; mimeType: string | undefined }) {
  const language = languageForMime(mimeType);
  const shown = language === 'json' ? prettyJson(text) : text;
  const tree = useMemo(
    () =>
      language !== undefined && shown.length <= HIGHLIGHT_LIMIT && lowlight.registered(language)
        ? lowlight.highlight(language, shown)
        : undefined,
    [language, shown],
  );
  return (
    <pre className="hljs resource-text" data-language={language ?? 'text'}>
      <code>{tree ? toJsxRuntime(tree, { Fragment, jsx, jsxs }) : shown}</code>
    </pre>
  );
}

function saveBlob(part: Extract<ResourcePart, { kind: 'blob' }>): void {
  const bytes = Uint8Array.from(atob(part.blob), (char) => char.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: part.mimeType ?? 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(part.uri);
  link.click();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One part of a read resource, shown by its MIME type. */
export function ResourcePartView({ part }: { part: ResourcePart }) {
  const t = useT();
  if (part.kind === 'text') {
    if (part.mimeType === 'text/markdown') {
      return (
        <div className="resource-markdown">
          <Markdown text={part.text} baseUri={part.uri} />
        </div>
      );
    }
    return <HighlightedText text={part.text} mimeType={part.mimeType} />;
  }
  if (part.mimeType?.startsWith('image/') === true) {
    return (
      <div className="resource-image">
        <DataImage data={part.blob} mimeType={part.mimeType} alt={part.uri} />
      </div>
    );
  }
  if (part.mimeType?.startsWith('audio/') === true)
    return <DataAudio data={part.blob} mimeType={part.mimeType} label={part.uri} />;
  return (
    <div className="resource-binary">
      <span>
        {part.mimeType !== undefined
          ? t('resources.preview.binaryTyped', { size: formatBytes(part.size), type: part.mimeType })
          : t('resources.preview.binary', { size: formatBytes(part.size) })}
      </span>
      <Button size="sm" icon={<ArrowDownIcon />} onClick={() => saveBlob(part)}>
        {t('resources.preview.save')}
      </Button>
    </div>
  );
}
