import type { Page } from '@playwright/test';
import { latinWords } from './words';

// "No English left behind" (issue 36), as the person sees it: the visible text of the page, with the accessible
// names and hints a screen reader or a hover shows, searched for Latin-script words. In Chinese or Korean every
// such word must be one the flow's server, model or person wrote, or a term the glossary keeps in English.

/** Terms renderer/i18n/GLOSSARY.md keeps in English in every language, and the product's name. */
export const KEPT_IN_ENGLISH = [
  // Key names, as printed on keyboards (a shortcut in a button's name: "Ctrl+B").
  'Ctrl',
  'Shift',
  'Alt',
  'Cmd',
  'Berth',
  'MCP',
  'Apps',
  'JSON',
  'RPC',
  'stdio',
  'stdin',
  'stdout',
  'stderr',
  'Streamable',
  'HTTP',
  'HTTPS',
  'SSE',
  'OAuth',
  'PKCE',
  'URI',
  'URL',
  'API',
  'ID',
  'PID',
  'Claude',
  'Anthropic',
  'OpenAI',
  'Ollama',
  'npm',
  'npx',
  'uvx',
  'Node',
  'js',
  'mcpb',
  'token',
  'tokens',
  'PNG',
];

/** One Latin-script word found, with the text it stands in and where. */
export interface EnglishWord {
  word: string;
  /** The text node or attribute the word is in, trimmed. */
  text: string;
  /** `tag.class` of its element, and the attribute when it came from one. */
  where: string;
}

/** What the person may read in English in a flow: whatever the server, the model and the person wrote. */
export interface Written {
  /** Texts shown whole as someone else wrote them (a server's titles, descriptions, enum values). */
  whole?: ReadonlySet<string>;
  /** Strings or patterns cut out of any text before it is searched (a name inside a label, a tool's reply). */
  parts?: ReadonlyArray<string | RegExp>;
  /** More words allowed anywhere, such as those the locale's translators kept (keptByTranslators). */
  words?: Iterable<string>;
}

/**
 * Latin-script words in the visible text of the page (text of visible elements, the chosen option of a list,
 * aria-label, title, placeholder, alt) that are neither glossary terms nor what someone else wrote (`written`).
 * Code (`<pre>`, `<code>`), form fields' values and code-like tokens (paths, addresses, method names) are never
 * searched.
 */
export async function englishLeft(page: Page, written: Written = {}): Promise<EnglishWord[]> {
  const found = await page.evaluate(() => {
    const texts: Array<{ text: string; where: string }> = [];
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className)}` : ''}`;
    const skip = (el: Element) => el.closest('pre, code, textarea, script, style, [contenteditable="true"]') !== null;
    for (const el of document.body.querySelectorAll('*')) {
      if (!(el instanceof HTMLElement) || !el.checkVisibility() || skip(el)) continue;
      for (const node of el.childNodes)
        if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim())
          texts.push({ text: node.textContent.trim(), where: describe(el) });
      // A closed list shows its chosen option, whose element is not rendered itself.
      if (el instanceof HTMLSelectElement && el.selectedOptions[0]?.text.trim())
        texts.push({ text: el.selectedOptions[0].text.trim(), where: `${describe(el)} option` });
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const value = el.getAttribute(attribute)?.trim();
        if (value) texts.push({ text: value, where: `${describe(el)}[${attribute}]` });
      }
    }
    return texts;
  });
  const allowed = new Set([...KEPT_IN_ENGLISH, ...(written.words ?? [])].map((term) => term.toLowerCase()));
  // Longest first, so a sentence goes before a word inside it.
  const parts = [...(written.parts ?? [])].sort((a, b) => String(b).length - String(a).length);
  const result: EnglishWord[] = [];
  for (const { text, where } of found) {
    if (written.whole?.has(text)) continue;
    let rest = text;
    for (const part of parts)
      rest =
        typeof part === 'string'
          ? rest.split(part).join(' ')
          : rest.replace(new RegExp(part.source, part.flags.includes('g') ? part.flags : `${part.flags}g`), ' ');
    for (const word of latinWords(rest)) {
      // Names in capitals (PATH, OS, SSH, ANTHROPIC_API_KEY) stay as written in every language, pseudo included.
      if (allowed.has(word.toLowerCase()) || /^[A-Z][A-Z0-9_]+$/.test(word)) continue;
      result.push({ word, text, where });
    }
  }
  return result;
}
