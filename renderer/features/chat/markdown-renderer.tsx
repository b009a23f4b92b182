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
import { memo, useMemo, useState, type ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { IconButton } from '../../ui/controls';
import { CheckIcon, CopyIcon } from '../../ui/icons';
import { markdownLinkTarget } from './markdown-links';
import { useT } from '../../i18n/use-t';

// A dozen common grammars keep the bundle small; other languages show as plain code.
const lowlight = createLowlight({ bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml });
lowlight.registerAlias({
  bash: ['sh', 'shell', 'zsh', 'console'],
  javascript: ['js', 'jsx', 'mjs'],
  typescript: ['ts', 'tsx'],
  xml: ['html', 'svg'],
  python: ['py'],
  yaml: ['yml'],
});

type HastElement = NonNullable<ExtraProps['node']>;
type HastNode = HastElement['children'][number];

function textOf(node: HastNode | HastElement): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map((child) => textOf(child as HastNode)).join('');
  return '';
}

function languageOf(code: HastElement): string | undefined {
  const classes = code.properties.className;
  const list = Array.isArray(classes) ? classes.map(String) : [];
  return list.find((c) => c.startsWith('language-'))?.slice('language-'.length);
}

/** A fenced code block: highlighted when its language is known, with a copy button. */
function CodeBlock({ node }: ExtraProps) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const code = node?.children.find(
    (child): child is HastElement => child.type === 'element' && child.tagName === 'code',
  );
  if (!code) return null;
  const text = textOf(code).replace(/\n$/, '');
  const language = languageOf(code);
  const highlighted =
    language !== undefined && lowlight.registered(language) ? lowlight.highlight(language, text) : undefined;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch (error) {
      console.error('Berth: could not copy the code block', error);
    }
  };
  return (
    <div className="md-code">
      <div className="md-code-head">
        <span>{language ?? 'text'}</span>
        <IconButton
          label={t(copied ? 'chat.markdown.copied' : 'chat.markdown.copy')}
          icon={copied ? <CheckIcon /> : <CopyIcon />}
          onClick={() => void copy()}
        />
      </div>
      <pre className="hljs">
        <code>{highlighted ? toJsxRuntime(highlighted, { Fragment, jsx, jsxs }) : text}</code>
      </pre>
    </div>
  );
}

/** A link shown as text: where it would go is in its tooltip, never opened. */
function InertLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  return (
    <span className="md-link-inert" title={href ? `Not opened by Berth: ${href}` : undefined}>
      {children}
    </span>
  );
}

function componentsFor(base: string | undefined): Components {
  return {
    pre: CodeBlock,
    a: ({ href, children }) => {
      const target = markdownLinkTarget(href, base);
      return target === undefined ? (
        <InertLink href={href}>{children}</InertLink>
      ) : (
        <a href={target} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    },
    // Remote images are not loaded (privacy, and the page's policy blocks them): the link is shown instead.
    img: ({ src, alt }) =>
      typeof src !== 'string' || src === '' ? null : <ImageLink src={src} alt={alt} base={base} />,
    table: ({ children }) => (
      <div className="md-table-wrap">
        <table>{children}</table>
      </div>
    ),
  };
}

function ImageLink({ src, alt, base }: { src: string; alt: string | undefined; base: string | undefined }) {
  const t = useT();
  const target = markdownLinkTarget(src, base);
  const label = alt ? t('chat.markdown.imageNamed', { alt }) : t('chat.markdown.image');
  return target === undefined ? (
    <InertLink href={src}>{label}</InertLink>
  ) : (
    <a href={target} target="_blank" rel="noopener noreferrer" className="md-image-link">
      {label}
    </a>
  );
}

const chatComponents = componentsFor(undefined);

// Loaded on demand through ./markdown (the lazy boundary): the Markdown parser and the
// grammars are a third of the bundle and not needed to paint the first screen.
/** The model's Markdown: GitHub tables, task lists, strikethrough, highlighted code; no raw HTML. */
export const MarkdownRenderer = memo(function MarkdownRenderer({ text, baseUri }: { text: string; baseUri?: string }) {
  const components = useMemo(() => (baseUri === undefined ? chatComponents : componentsFor(baseUri)), [baseUri]);
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
