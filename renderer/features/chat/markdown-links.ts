/** Schemes a link in Markdown may open (outside Berth): the web and mail. */
const OPENABLE = new Set(['http:', 'https:', 'mailto:']);

/**
 * Where a Markdown link may go, or undefined when it must stay text.
 *
 * A relative link (`docs/setup.md`, `/x`, `#part`) would resolve against
 * Berth's own page and open one of its URLs ("Not found", or worse, a URL of
 * the local host). It is resolved against the document it came from when that
 * is a web address (a resource at `https://…`), and otherwise not opened.
 * Only http(s) and mailto leave Berth; `javascript:`, `file:`, `data:` and
 * server-defined schemes never become links.
 */
export function markdownLinkTarget(href: string | undefined, base?: string): string | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    if (base === undefined) return undefined;
    let baseUrl: URL;
    try {
      baseUrl = new URL(base);
    } catch {
      return undefined;
    }
    if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') return undefined;
    try {
      url = new URL(href, baseUrl);
    } catch {
      return undefined;
    }
  }
  return OPENABLE.has(url.protocol) ? url.href : undefined;
}
